import EventCore
import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let teardown = Notification.Name("EventRAIITests.teardown")
}

/// A main-actor screen whose `deinit` counts the times it ran off the main actor.
@MainActor
private final class Screen {
  let offMainActor: Counter

  init(offMainActor: Counter) {
    self.offMainActor = offMainActor
  }

  func refresh() {}

  deinit {
    if !MainActorDetection.isOnMainActor { offMainActor.increment() }
  }
}

@Suite("Isolated owner teardown Stress")
struct IsolatedOwnerTeardownStressTests {
  @MainActor
  @Test("a main-actor owner released while other threads post deinits on main")
  func mainActorOwnerDeinitsOnMain() async {
    let center = NotificationCenter()
    let offMainActor = Counter()
    let stop = Counter()
    let stopped = Signal()
    let threads = 2
    for _ in 0..<threads {
      Thread {
        while stop.count == 0 {
          center.post(name: .teardown, object: nil)
          // Paced, so that the main queue is not flooded faster than the main actor drains.
          Thread.sleep(forTimeInterval: 0.000_05)
        }
        stopped.fire()
      }.start()
    }
    for _ in 0..<2_000 {
      var screen: Screen? = Screen(offMainActor: offMainActor)
      for _ in 0..<8 {
        center.observe(.teardown, owner: screen!) { screen, _ in screen.refresh() }
      }
      await Task.yield()
      screen = nil
    }
    stop.increment()
    for _ in 0..<threads { #expect(await stopped.arrival()) }
    await drainMainQueue()
    #expect(offMainActor.count == 0, "\(offMainActor.count) of 2000 owners deinitialized off main")
  }
}
