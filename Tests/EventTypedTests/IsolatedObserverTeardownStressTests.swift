import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// A main-actor screen whose `deinit` counts the times it ran off the main actor.
@MainActor
private final class Screen {
  let offMainActor: Counter

  init(offMainActor: Counter) {
    self.offMainActor = offMainActor
  }

  func show(_ value: Int) {}

  deinit {
    if !MainActorDetection.isOnMainActor { offMainActor.increment() }
  }
}

@Suite("Isolated observer teardown Stress")
struct IsolatedObserverTeardownStressTests {
  @MainActor
  @Test("a main-actor observer released while other threads post and count deinits on main")
  func mainActorObserverDeinitsOnMain() async {
    let events = (0..<8).map { _ in Event<Int>() }
    let offMainActor = Counter()
    let stop = Counter()
    let stopped = Signal()
    let threads = 3
    for index in 0..<threads {
      Thread {
        while stop.count == 0 {
          if index == 0 {
            for event in events { event.post(0) }
            // Paced, so that the main queue is not flooded faster than the main actor drains.
            Thread.sleep(forTimeInterval: 0.000_2)
          } else {
            for event in events { _ = event.observerCount }
          }
        }
        stopped.fire()
      }.start()
    }
    for _ in 0..<2_000 {
      var screen: Screen? = Screen(offMainActor: offMainActor)
      for event in events { event.register(screen!, function: Screen.show) }
      await Task.yield()
      screen = nil
    }
    stop.increment()
    for _ in 0..<threads { #expect(await stopped.arrival()) }
    await drainMainQueue()
    #expect(offMainActor.count == 0, "\(offMainActor.count) of 2000 screens deinitialized off main")
    #expect(events.allSatisfy { $0.observerCount == 0 })
  }
}
