import EventTestSupport
import EventTyped
import Testing

@Suite("Event registration and posting")
struct EventTests {
  @Test("posting to an event with no observers does nothing")
  func postWithoutObservers() {
    let event = Event<String>()
    event.post("nobody")
    #expect(event.observerCount == 0)
  }

  @Test("observers are called in registration order, once each")
  func registrationOrder() {
    let log = Recorder<String>()
    let event = Event<Void>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    event.register(a, function: Listener.fired)
    event.register(b, function: Listener.fired)

    event.post()

    #expect(log.values == ["A", "B"])
    #expect(event.observerCount == 2)
  }

  @Test("registering an observer again replaces its handler and moves it to the end")
  func reRegistrationMovesToEnd() {
    let log = Recorder<String>()
    let event = Event<String>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    event.register(a, function: Listener.received)
    event.register(b, function: Listener.received)
    event.register(a) { listener, text in listener.log.record("A again:\(text)") }

    event.post("x")

    #expect(log.values == ["B:x", "A again:x"])
    #expect(event.observerCount == 2)
  }

  @Test("re-registration cancels the old registration's queued delivery")
  func reRegistrationCancelsQueuedDelivery() throws {
    let queue = DispatchQueue(label: "re-registration")
    let log = Recorder<String>()
    let event = Event<String>(delivery: .queue(queue))
    let a = Listener("A", log: log)
    event.register(a, function: Listener.received)
    queue.suspend()
    event.post("queued")
    event.register(a) { listener, text in listener.log.record("new:\(text)") }
    queue.resume()
    try #require(drain(queue))
    #expect(log.values.isEmpty)

    event.post("next")
    try #require(drain(queue))
    #expect(log.values == ["new:next"])
  }

  @Test("unregistering one observer leaves the others")
  func unregisterOne() {
    let log = Recorder<String>()
    let event = Event<Void>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    event.register(a, function: Listener.fired)
    event.register(b, function: Listener.fired)

    event.unregister(a)
    event.post()

    #expect(log.values == ["B"])
    #expect(event.observerCount == 1)
  }

  @Test("an observer typed as AnyObject can be unregistered")
  func unregisterErased() {
    let log = Recorder<String>()
    let event = Event<Void>()
    let a = Listener("A", log: log)
    event.register(a, function: Listener.fired)
    let erased: AnyObject = a

    event.unregister(erased)
    event.post()

    #expect(log.values.isEmpty)
    #expect(event.observerCount == 0)
  }

  @Test("unregisterAll ends observers, types and subscriptions")
  func unregisterAll() {
    let log = Recorder<String>()
    let event = Event<String>()
    let a = Listener("A", log: log)
    event.register(a, function: Listener.received)
    event.register(Metrics.self) { text in log.record("type:\(text)") }
    let token = event.subscribe { text in log.record("closure:\(text)") }

    event.unregisterAll()
    event.post("x")

    #expect(log.values.isEmpty)
    #expect(event.observerCount == 0)
    #expect(token.isCancelled)
  }

  @Test("a deallocated observer is not called, is purged and is not retained")
  func deadObserver() {
    let log = Recorder<String>()
    let event = Event<String>()
    let survivor = Listener("S", log: log)
    weak var weakListener: Listener?
    do {
      let listener = Listener("D", log: log)
      weakListener = listener
      event.register(listener, function: Listener.received)
      event.register(survivor, function: Listener.received)
      #expect(event.observerCount == 2)
    }

    #expect(weakListener == nil)
    event.post("x")

    #expect(log.values == ["S:x"])
    #expect(event.observerCount == 1)
  }

  @Test("closure registrations hold their observer weakly too")
  func handlerHoldsObserverWeakly() {
    let event = Event<Int>()
    let calls = Counter()
    weak var weakObserver: Tracked?
    do {
      let observer = Tracked()
      weakObserver = observer
      event.register(observer) { _, _ in calls.increment() }
    }
    #expect(weakObserver == nil)
    event.post(1)
    #expect(calls.count == 0)
    #expect(event.observerCount == 0)
  }

  @Test("a String payload arrives intact through methods, closures and subscriptions")
  func stringPayload() {
    let log = Recorder<String>()
    let event = Event<String>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    event.register(a, function: Listener.received)
    event.register(b) { listener, text in listener.log.record("B handler:\(text)") }
    let token = event.subscribe { text in log.record("subscribe:\(text)") }

    event.post("héllo")

    #expect(log.values == ["A:héllo", "B handler:héllo", "subscribe:héllo"])
    token.cancel()
  }

  @Test("a tuple payload arrives intact, posted as a tuple or as separate arguments")
  func tuplePayload() {
    let log = Recorder<String>()
    let event = Event<(String, Int)>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    event.register(a, function: Listener.receivedPair)
    event.register(b) { listener, pair in listener.log.record("B:\(pair.0)+\(pair.1)") }
    let token = event.subscribe { text, number in log.record("sub:\(text)+\(number)") }

    event.post(("a", 3))
    event.post("b", 4)

    #expect(
      log.values == [
        "A:a,3", "B:a+3", "sub:a+3",
        "A:b,4", "B:b+4", "sub:b+4",
      ])
    token.cancel()
  }

  @Test("a method with labelled parameters serves an unlabelled tuple payload")
  func labelledMethod() {
    let log = Recorder<String>()
    let event = Event<(String, Int)>()
    let a = Listener("A", log: log)
    event.register(a, function: Listener.receivedLabelled)
    event.post("c", 5)
    #expect(log.values == ["A labelled:c,5"])
  }

  @Test("a labelled tuple payload arrives intact through closures")
  func labelledTuplePayload() {
    let log = Recorder<String>()
    let event = Event<(name: String, count: Int)>()
    let a = Listener("A", log: log)
    event.register(a) { listener, change in
      listener.log.record("\(change.name)=\(change.count)")
    }
    let token = event.subscribe { change in log.record("sub \(change.name)=\(change.count)") }

    event.post((name: "apples", count: 2))

    #expect(log.values == ["apples=2", "sub apples=2"])
    token.cancel()
  }

  @Test("a Void event calls methods without parameters, for post() and post(())")
  func voidPayload() {
    let log = Recorder<String>()
    let event = Event<Void>()
    let a = Listener("A", log: log)
    event.register(a, function: Listener.fired)
    let token = event.subscribe { log.record("sub") }

    event.post()
    event.post(())

    #expect(log.values == ["A", "sub", "A", "sub"])
    token.cancel()
  }

  @Test("a subscription ends when its token is cancelled or released")
  func subscriptionToken() {
    let event = Event<Int>()
    let calls = Counter()
    let kept = event.subscribe { _ in calls.increment() }
    do {
      let released = event.subscribe { _ in calls.increment() }
      _ = released
    }
    event.post(1)
    #expect(calls.count == 1)
    #expect(event.observerCount == 1)

    kept.cancel()
    event.post(2)
    #expect(calls.count == 1)
    #expect(event.observerCount == 0)
  }

  @Test("an observer registration outlives its discarded token and ends when it is cancelled")
  func observerToken() {
    let log = Recorder<String>()
    let event = Event<String>()
    let a = Listener("A", log: log)
    event.register(a, function: Listener.received)
    event.post("kept")
    #expect(log.values == ["A:kept"])

    let token = event.register(a, function: Listener.received)
    token.cancel()
    event.post("gone")
    #expect(log.values == ["A:kept"])
    #expect(event.observerCount == 0)
  }

  @Test("a type-level registration is one per type, replaced on re-registration")
  func typeRegistration() {
    let log = Recorder<String>()
    let event = Event<String>()
    event.register(Analytics.self) { text in log.record("first:\(text)") }
    event.register(Metrics.self) { text in log.record("metrics:\(text)") }
    event.register(Analytics.self) { text in log.record("second:\(text)") }

    event.post("x")

    #expect(log.values == ["metrics:x", "second:x"])
    #expect(event.observerCount == 2)
  }

  @Test("unregistering a type ends only that type's registration")
  func unregisterType() {
    let log = Recorder<String>()
    let event = Event<String>()
    let a = Listener("A", log: log)
    event.register(Analytics.self) { text in log.record("analytics:\(text)") }
    event.register(Metrics.self) { text in log.record("metrics:\(text)") }
    event.register(a, function: Listener.received)

    event.unregister(Analytics.self)
    event.post("x")

    #expect(log.values == ["metrics:x", "A:x"])
    #expect(event.observerCount == 2)

    event.register(Analytics.self) { text in log.record("analytics again:\(text)") }
    event.post("y")
    #expect(log.values.suffix(3) == ["metrics:y", "A:y", "analytics again:y"])
  }

  @Test("a class can be registered as a type and its instances as observers, separately")
  func classTypeAndInstance() {
    let log = Recorder<String>()
    let event = Event<String>()
    let a = Listener("A", log: log)
    event.register(Listener.self) { text in log.record("type:\(text)") }
    event.register(a, function: Listener.received)

    event.unregister(Listener.self)
    event.post("x")

    #expect(log.values == ["A:x"])
  }

  @Test("observerCount counts observers, types and subscriptions")
  func observerCount() {
    let event = Event<Int>()
    let a = Tracked()
    event.register(a) { _, _ in }
    event.register(Metrics.self) { (_: Int) in }
    let token = event.subscribe { _ in }
    #expect(event.observerCount == 3)
    token.cancel()
    #expect(event.observerCount == 2)
  }

  @Test("a handler may post to its own event: the nested post completes inside it")
  func reentrantPost() {
    let log = Recorder<String>()
    let event = Event<Int>()
    let a = Tracked("A")
    let b = Tracked("B")
    event.register(a) { observer, depth in
      log.record("\(observer.name)\(depth)")
      if depth == 0 { event.post(1) }
    }
    event.register(b) { observer, depth in log.record("\(observer.name)\(depth)") }

    event.post(0)

    #expect(log.values == ["A0", "A1", "B1", "B0"])
  }

  @Test("an observer registered during a post gets the next post, not this one")
  func registerDuringPost() {
    let log = Recorder<String>()
    let event = Event<Int>()
    let a = Tracked("A")
    let late = Tracked("late")
    event.register(a) { observer, value in
      log.record("\(observer.name)\(value)")
      if value == 1 {
        event.register(late) { observer, value in log.record("\(observer.name)\(value)") }
      }
    }

    event.post(1)
    event.post(2)

    #expect(log.values == ["A1", "A2", "late2"])
  }

  @Test("cancelling a later observer mid-post skips it")
  func cancelMidPost() {
    let log = Recorder<String>()
    let event = Event<Int>()
    let a = Tracked("A")
    let b = Tracked("B")
    let holder = TokenHolder()
    event.register(a) { observer, _ in
      log.record(observer.name)
      holder.token?.cancel()
    }
    holder.token = event.register(b) { observer, _ in log.record(observer.name) }

    event.post(1)

    #expect(log.values == ["A"])
    #expect(event.observerCount == 1)
  }

  @Test("unregistering a later observer mid-post skips it")
  func unregisterMidPost() {
    let log = Recorder<String>()
    let event = Event<Int>()
    let a = Tracked("A")
    let b = Tracked("B")
    event.register(a) { observer, _ in
      log.record(observer.name)
      event.unregister(b)
    }
    event.register(b) { observer, _ in log.record(observer.name) }

    event.post(1)

    #expect(log.values == ["A"])
  }

  @Test("an observer released by an earlier handler in the same post is gone and skipped")
  func releasedMidPost() {
    let log = Recorder<String>()
    let event = Event<Int>()
    let a = Tracked("A")
    let holder = ObjectHolder()
    let weakB = WeakObjectHolder()
    event.register(a) { observer, _ in
      log.record(observer.name)
      holder.object = nil
      log.record(weakB.object == nil ? "B deallocated" : "B alive")
    }
    do {
      let b = Tracked("B")
      weakB.object = b
      holder.object = b
      event.register(b) { observer, _ in log.record(observer.name) }
    }

    event.post(1)

    #expect(log.values == ["A", "B deallocated"])
    #expect(event.observerCount == 1)
  }

  @Test("the event does not keep itself or its observers alive through registrations")
  func eventIsReleased() {
    weak var weakEvent: Event<Int>?
    weak var weakObserver: Tracked?
    let observer = Tracked()
    weakObserver = observer
    do {
      let event = Event<Int>()
      weakEvent = event
      event.register(observer) { _, _ in }
      event.register(Metrics.self) { (_: Int) in }
      _ = event.subscribe { _ in }
    }
    #expect(weakEvent == nil)
    #expect(weakObserver != nil)
  }
}

/// Holds a token that a handler cancels; a reference type so the handler can read it later.
final class TokenHolder: @unchecked Sendable {
  // Written before the post and read by a handler on the same thread.
  var token: Subscription?
}

/// Holds an object that a handler releases.
final class ObjectHolder: @unchecked Sendable {
  // Written and read on the test's thread only, the handlers being synchronous.
  var object: AnyObject?
}

final class WeakObjectHolder: @unchecked Sendable {
  // Written and read on the test's thread only, the handlers being synchronous.
  weak var object: AnyObject?
}

@Suite("Event with static functions", .serialized)
struct EventStaticFunctionTests {
  @Test("static methods registered per type receive the payload's elements")
  func staticMethods() {
    let voidEvent = Event<Void>()
    let stringEvent = Event<String>()
    let pairEvent = Event<(String, Int)>()
    let before = Analytics.log.count
    voidEvent.register(Analytics.self, function: Analytics.fired)
    stringEvent.register(Analytics.self, function: Analytics.received)
    pairEvent.register(Analytics.self, function: Analytics.receivedPair)

    voidEvent.post()
    stringEvent.post("s")
    pairEvent.post("p", 1)
    pairEvent.post(("q", 2))

    #expect(
      Array(Analytics.log.values.dropFirst(before)) == [
        "Analytics", "Analytics:s", "Analytics:p,1", "Analytics:q,2",
      ])
  }
}
