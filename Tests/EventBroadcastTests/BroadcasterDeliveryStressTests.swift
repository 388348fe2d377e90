import EventBroadcast
import EventCore
import EventTestSupport
import Foundation
import Synchronization
import Testing

private protocol Tick {
  func tick(thread: Int, value: Int)
}

/// A main-actor screen that registers itself and records where each call ran, and where it was
/// deinitialized.
@MainActor private final class TickScreen: Tick {
  let calls: Recorder<[Int]>
  let offMainActor: Counter
  let deinitOffMainActor: Counter

  init(_ hub: Broadcaster, calls: Recorder<[Int]>, offMainActor: Counter, deinitOff: Counter) {
    self.calls = calls
    self.offMainActor = offMainActor
    self.deinitOffMainActor = deinitOff
    hub.register((any Tick).self, observer: self)
  }

  nonisolated func tick(thread: Int, value: Int) {
    if !MainActorDetection.isOnMainActor { offMainActor.increment() }
    calls.record([thread, value])
  }

  deinit {
    if !MainActorDetection.isOnMainActor { deinitOffMainActor.increment() }
  }
}

@Suite("Broadcaster delivery Stress")
struct BroadcasterDeliveryStressTests {
  @Test("background notifies from 4 threads reach a main-actor screen on the main actor, in order")
  @MainActor
  func backgroundNotifiesInOrder() async {
    let hub = Broadcaster()
    let calls = Recorder<[Int]>()
    let offMain = Counter()
    let screen = TickScreen(hub, calls: calls, offMainActor: offMain, deinitOff: Counter())
    let done = Signal()

    Thread.detachNewThread {
      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for value in 0..<250 {
          hub.notify((any Tick).self) { $0.tick(thread: thread, value: value) }
        }
      }
      done.fire()
    }
    #expect(await done.arrival())
    await drainMainQueue()

    #expect(calls.count == 1_000)
    #expect(offMain.count == 0)
    for thread in 0..<4 {
      #expect(calls.values.filter { $0[0] == thread }.map { $0[1] } == Array(0..<250))
    }
    withExtendedLifetime(screen) {}
  }

  @Test("main-actor screens released while background threads notify are never called off it")
  @MainActor
  func releasedWhileNotified() async {
    let hub = Broadcaster()
    let calls = Recorder<[Int]>()
    let offMain = Counter()
    let deinitOffMain = Counter()
    let stopped = Signal()
    let notifying = Signal()

    let stopFlag = StopFlag()
    Thread.detachNewThread {
      var value = 0
      notifying.fire()
      while !stopFlag.isSet {
        let sent = value
        hub.notify((any Tick).self) { $0.tick(thread: 0, value: sent) }
        value += 1
      }
      stopped.fire()
    }
    #expect(await notifying.arrival())
    for _ in 0..<200 {
      var screen: TickScreen? = TickScreen(
        hub, calls: calls, offMainActor: offMain, deinitOff: deinitOffMain)
      await Task.yield()
      screen = nil
      _ = screen
    }
    stopFlag.set()
    #expect(await stopped.arrival())
    await drainMainQueue()

    #expect(offMain.count == 0)
    #expect(deinitOffMain.count == 0)
  }
}

/// A stop flag shared with a background loop.
private final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  var isSet: Bool { flag.load(ordering: .acquiring) }
  func set() { flag.store(true, ordering: .releasing) }
}
