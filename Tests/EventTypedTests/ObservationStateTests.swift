import EventTestSupport
import EventTyped
import Foundation
import Testing

/// An observer class for weakly held registrations.
private final class Screen: Sendable {
  func show(_ value: Int) {}
}

@Suite("Event observation state and post counts")
struct ObservationStateTests {
  @Test("post returns the number of registrations it reached, 0 when nobody listens")
  func postCounts() {
    let event = Event<Int>()
    #expect(event.post(1) == 0)
    let first = event.subscribe { _ in }
    let second = event.subscribe { _ in }
    #expect(event.post(2) == 2)
    second.cancel()
    #expect(event.post(3) == 1)
    let queuedEvent = Event<Int>(delivery: .queue(DispatchQueue(label: "counts")))
    let queued = queuedEvent.subscribe { _ in }
    // Queued, not yet run: reached all the same.
    #expect(queuedEvent.post(4) == 1)
    withExtendedLifetime((first, queued)) {}
  }

  @Test("a post does not count an observer that died before it")
  func postSkipsTheDead() {
    let event = Event<Int>()
    var screen: Screen? = Screen()
    event.register(screen!, function: Screen.show)
    #expect(event.post(1) == 1)
    screen = nil
    #expect(event.post(2) == 0)
    #expect(!event.isObserved)
  }

  @Test("the tuple form of post counts as the payload form does")
  func tuplePostCounts() {
    let event = Event<(String, Int)>()
    let token = event.subscribe { _ in }
    #expect(event.post("a", 1) == 1)
    withExtendedLifetime(token) {}
  }

  @Test("isObserved follows the first registration and the end of the last")
  func isObservedFollowsRegistrations() {
    let event = Event<Int>()
    #expect(!event.isObserved)
    let first = event.subscribe { _ in }
    #expect(event.isObserved)
    let second = event.subscribe { _ in }
    first.cancel()
    #expect(event.isObserved)
    second.cancel()
    #expect(!event.isObserved)
  }

  @Test("onObservedChange reports true, then false, and nothing when it is installed")
  func observedChangesInOrder() {
    let event = Event<Int>()
    let early = event.subscribe { _ in }
    let changes = Recorder<Bool>()
    let hook = event.onObservedChange { changes.record($0) }
    #expect(changes.values.isEmpty)
    early.cancel()
    let token = event.subscribe { _ in }
    let another = event.subscribe { _ in }
    token.cancel()
    another.cancel()
    #expect(changes.values == [false, true, false])
    hook.cancel()
    let after = event.subscribe { _ in }
    #expect(changes.values == [false, true, false])
    withExtendedLifetime(after) {}
  }

  @Test("an observer's death counts once the event learns of it")
  func observerDeathCounts() {
    let event = Event<Int>()
    let changes = Recorder<Bool>()
    let hook = event.onObservedChange { changes.record($0) }
    var screen: Screen? = Screen()
    event.register(screen!, function: Screen.show)
    screen = nil
    #expect(changes.values == [true])
    #expect(event.observerCount == 0)
    #expect(changes.values == [true, false])
    withExtendedLifetime(hook) {}
  }

  @Test("an onObservedChange handler may register and cancel on the same event")
  func reentrantHandler() {
    let event = Event<Int>()
    let changes = Recorder<Bool>()
    let hook = event.onObservedChange { observed in
      changes.record(observed)
      if observed { event.subscribe { _ in }.cancel() }
    }
    let token = event.subscribe { _ in }
    token.cancel()
    #expect(changes.values == [true, false])
    withExtendedLifetime(hook) {}
  }
}

@Suite("Event observation state Stress")
struct ObservationStateStressTests {
  @Test("concurrent registrations on many threads report alternating changes, outside locks")
  func alternatingUnderContention() {
    let event = Event<Int>()
    let changes = ChangeLog()
    let hook = event.onObservedChange { observed in
      // Outside every lock: the handler may read and post to the event.
      _ = event.isObserved
      event.post(0)
      changes.record(observed)
    }
    let body: @Sendable () -> Void = {
      let token = event.subscribe { _ in }
      token.cancel()
    }
    let finished = runThreads([body, body, body, body], seconds: 0.3)
    #expect(finished)
    // Changes made while a handler ran reach it from a handed-off round, a little later.
    #expect(changes.waitUntilSettled(on: false, seconds: 10))
    let values = changes.told
    #expect(!values.isEmpty)
    #expect(values.first == true)
    #expect(alternates(values))
    #expect(!event.isObserved)
    withExtendedLifetime(hook) {}
  }

  @Test("a change handler that waits for a registering thread does not deadlock")
  func handlerWaitsForRegisteringThread() {
    let event = Event<Int>()
    let waited = Signal()
    let hook = event.onObservedChange { observed in
      guard observed else { return }
      // Another thread makes the next change while this one delivers: it must not wait for us.
      let other = onOtherThread { event.subscribe { _ in }.cancel() }
      if other { waited.fire() }
    }
    let token = event.subscribe { _ in }
    #expect(waited.wait(seconds: 10))
    token.cancel()
    withExtendedLifetime(hook) {}
  }
}
