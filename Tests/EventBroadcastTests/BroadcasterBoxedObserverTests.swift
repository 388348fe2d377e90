import EventBroadcast
import EventTestSupport
import Testing

/// A class error: as `any Error`, it lives in a box rather than in the existential itself.
private final class Failure: Error, Sendable {
  let calls = Counter()
}

@Suite("Broadcaster existential-box channels")
struct BroadcasterBoxedObserverTests {
  let hub = Broadcaster()

  @Test("an observer registered on an (any Error) channel is the object, counted and called")
  func errorChannelDelivers() {
    let failure = Failure()
    hub.register((any Error).self, observer: failure)

    #expect(hub.observerCount((any Error).self) == 1)
    hub.notify((any Error).self) { error in
      (error as? Failure)?.calls.increment()
    }
    #expect(failure.calls.count == 1)
  }

  @Test("the box the caller made is not kept, and the observer stays weak")
  func boxIsNotKept() {
    let calls = Counter()
    weak var released: Failure?
    do {
      let failure = Failure()
      released = failure
      let boxed: any Error = failure
      hub.register((any Error).self, observer: boxed)
      for _ in 0..<10 {
        hub.notify((any Error).self) { error in
          if (error as? Failure) === failure { calls.increment() }
        }
      }
    }
    #expect(released == nil)
    #expect(calls.count == 10)
    hub.notify((any Error).self) { _ in calls.increment() }
    #expect(calls.count == 10)
    #expect(hub.observerCount((any Error).self) == 0)
  }

  @Test("an observer on an (any Error) channel can be unregistered")
  func errorChannelUnregisters() {
    let failure = Failure()
    hub.register((any Error).self, observer: failure)
    hub.unregister((any Error).self, observer: failure)

    hub.notify((any Error).self) { _ in failure.calls.increment() }
    #expect(failure.calls.count == 0)
    #expect(hub.observerCount((any Error).self) == 0)
  }
}
