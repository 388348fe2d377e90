import EventTestSupport
import EventTyped
import Foundation
import Synchronization
import Testing

@Suite("Async subscribe")
struct AsyncSubscribeTests {
  @Test("a closure literal with no await selects the synchronous subscribe")
  func literalWithoutAwaitIsSynchronous() {
    let event = Event<Int>()
    let log = Recorder<Int>()
    let token = event.subscribe { value in log.record(value) }
    event.post(1)
    #expect(log.values == [1], "ran before post returned: the synchronous overload")
    withExtendedLifetime(token) {}
  }

  @Test("calls run one at a time, in post order, and post never waits for them")
  func orderedAndSerial() async {
    let event = Event<Int>()
    let log = Recorder<Int>()
    let running = Atomic<Int>(0)
    let overlaps = Counter()
    let done = Signal()
    let token = event.subscribe { value async in
      if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
        overlaps.increment()
      }
      await Task.yield()
      log.record(value)
      running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
      if value == 99 { done.fire() }
    }
    for value in 0..<100 { event.post(value) }
    #expect(await done.arrival())
    #expect(log.values == Array(0..<100))
    #expect(overlaps.count == 0)
    withExtendedLifetime(token) {}
  }

  @MainActor
  @Test("a closure isolated to the main actor runs on the main actor, posted from anywhere")
  func mainActorHandler() async {
    let event = Event<Int>()
    var received: [Int] = []
    let done = Signal()
    let token = event.subscribe { @MainActor value async in
      MainActor.assertIsolated()
      received.append(value)
      if value == 9 { done.fire() }
    }
    Thread.detachNewThread { for value in 0..<10 { event.post(value) } }
    #expect(await done.arrival())
    #expect(received == Array(0..<10))
    withExtendedLifetime(token) {}
  }

  @Test("after cancel returns no further call starts, and queued posts are dropped")
  func cancelDropsQueued() async {
    let event = Event<Int>()
    let log = Recorder<Int>()
    let entered = Signal()
    let release = Signal()
    let token = event.subscribe { value async in
      log.record(value)
      if value == 1 {
        entered.fire()
        _ = await release.arrival()
      }
    }
    event.post(1)
    #expect(await entered.arrival())
    event.post(2)
    event.post(3)
    token.cancel()
    release.fire()
    // A later subscription's call shows the first one's queue has had its chance to run.
    let witness = Signal()
    let other = event.subscribe { _ async in witness.fire() }
    event.post(4)
    #expect(await witness.arrival())
    #expect(log.values == [1], "posts queued behind the running call were dropped")
    #expect(event.observerCount == 1)
    withExtendedLifetime(other) {}
  }

  @Test("cancel does not wait for a call that is suspended")
  func cancelDoesNotWait() async {
    let event = Event<Int>()
    let entered = Signal()
    let release = Signal()
    let token = event.subscribe { _ async in
      entered.fire()
      _ = await release.arrival()
    }
    event.post(1)
    #expect(await entered.arrival())
    let returned = onOtherThread(seconds: 5) { token.cancel() }
    #expect(returned)
    release.fire()
  }

  @Test("releasing the token ends the subscription")
  func releasedToken() async {
    let event = Event<Int>()
    var token: Subscription? = event.subscribe { _ async in }
    #expect(event.observerCount == 1)
    #expect(token != nil)
    token = nil
    #expect(event.observerCount == 0)
  }
}
