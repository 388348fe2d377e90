import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// What one `onObservedChange` handler was told, in order, with a signal per call so a test can
/// wait, bounded, for the value it expects last.
final class ChangeLog: Sendable {
  private let values = Lock<[Bool]>([])
  private let called = Signal()

  func record(_ value: Bool) {
    values.withLock { $0.append(value) }
    called.fire()
  }

  var told: [Bool] { values.withLock { $0 } }

  /// Waits until the handler has been told `value` last and then called no more for `quiet`
  /// seconds: its deliveries have drained.
  ///
  /// - Returns: `false` if `seconds` passed first.
  func waitUntilSettled(on value: Bool, quiet: Double = 0.3, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while deadline.timeIntervalSinceNow > quiet {
      // A call within `quiet` means deliveries are still coming.
      if called.wait(seconds: quiet) { continue }
      if told.last == value { return true }
    }
    return false
  }
}

/// Whether every value differs from the one before it.
func alternates(_ values: [Bool]) -> Bool {
  zip(values, values.dropFirst()).allSatisfy { $0 != $1 }
}

@Suite("onObservedChange bounded delivery Stress")
struct ObservedChangesBoundStressTests {
  @Test("a slow change handler holds no subscribe or cancel for other threads' changes")
  func slowHandlerHoldsNoCaller() {
    let event = Event<Int>()
    let log = ChangeLog()
    let hook = event.onObservedChange { observed in
      Thread.sleep(forTimeInterval: 0.001)
      log.record(observed)
    }
    // The slowest subscribe or cancel, and how many toggles the threads made.
    let slowest = Lock<Duration>(.zero)
    let toggles = Lock(0)
    let body: @Sendable () -> Void = {
      let clock = ContinuousClock()
      let took = clock.measure { event.subscribe { _ in }.cancel() }
      slowest.withLock { $0 = max($0, took) }
      toggles.withLock { $0 += 1 }
    }
    // Today's bound would be the handler's 1 ms per round; 0.5 s leaves room for a loaded
    // machine, and a caller that delivers others' changes stays in for the whole run.
    let finished = runThreads([body, body], seconds: 0.5, timeout: 10)
    #expect(finished)
    #expect(slowest.withLock { $0 } < .milliseconds(500))
    // Every toggle ends unobserved: the handler learns it once the hand-off drains.
    #expect(log.waitUntilSettled(on: false, seconds: 10))
    #expect(!event.isObserved)
    let told = log.told
    #expect(alternates(told))
    #expect(told.first == true)
    // Coalesced: far fewer calls than changes (two per toggle).
    #expect(told.count * 4 < toggles.withLock { $0 })
    withExtendedLifetime(hook) {}
  }

  @Test("each change handler alternates and ends on the event's state, under contention")
  func alternatesAndEndsOnTheState() {
    let event = Event<Int>()
    let first = ChangeLog()
    let second = ChangeLog()
    let hooks = [
      event.onObservedChange { first.record($0) },
      event.onObservedChange { observed in
        // Outside every lock: the handler may read and post to the event.
        _ = event.isObserved
        event.post(0)
        second.record(observed)
      },
    ]
    let body: @Sendable () -> Void = { event.subscribe { _ in }.cancel() }
    #expect(runThreads([body, body, body, body], seconds: 0.3, timeout: 10))
    // End observed, so the final state differs from the one each toggle ends on.
    let kept = event.subscribe { _ in }
    #expect(event.isObserved)
    for log in [first, second] {
      #expect(log.waitUntilSettled(on: true, seconds: 10))
      #expect(alternates(log.told))
      #expect(log.told.first == true)
    }
    withExtendedLifetime((hooks, kept)) {}
  }

  @Test("a change handler that waits for a thread making changes does not deadlock")
  func handlerWaitsForChangingThread() {
    let event = Event<Int>()
    let log = ChangeLog()
    let isFirst = Lock(true)
    let hook = event.onObservedChange { observed in
      log.record(observed)
      // Once: a handler that toggled on every true would keep the deliveries going for ever.
      let first = isFirst.withLock { isFirst in
        defer { isFirst = false }
        return isFirst
      }
      guard observed, first else { return }
      // The other thread ends the registration being made and toggles while this call runs:
      // its changes must not wait for this delivery, and must still reach the handler.
      let returned = onOtherThread {
        event.unregisterAll()
        event.subscribe { _ in }.cancel()
      }
      #expect(returned)
    }
    let registration = event.subscribe { _ in }
    // The handler ran, and returned, inside subscribe.
    #expect(log.told.first == true)
    #expect(log.waitUntilSettled(on: false, seconds: 10))
    #expect(!event.isObserved)
    #expect(registration.isCancelled)
    #expect(alternates(log.told))
    withExtendedLifetime(hook) {}
  }

  @Test("a change a handler makes is told to it after it returns, and a cancelled one is not")
  func handlerMakesAChange() {
    let event = Event<Int>()
    let log = ChangeLog()
    let hook = event.onObservedChange { observed in
      log.record(observed)
      // Ends the registration being made: the change waits for this call, not in it.
      if observed { event.unregisterAll() }
    }
    let silent = Lock(false)
    let cancelled = event.onObservedChange { _ in silent.withLock { $0 = true } }
    cancelled.cancel()
    event.subscribe { _ in }.cancel()
    #expect(log.waitUntilSettled(on: false, seconds: 10))
    #expect(log.told == [true, false])
    #expect(!silent.withLock { $0 })
    withExtendedLifetime(hook) {}
  }
}
