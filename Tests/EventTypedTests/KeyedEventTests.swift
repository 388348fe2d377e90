import EventTestSupport
import EventTyped
import Foundation
import Testing

private struct Refusal: Error, Equatable {
  let value: Int
}

private func refuse(_ value: Int) throws {
  if value < 0 { throw Refusal(value: value) }
}

/// An actor observer for the per-key actor forms.
private actor Vault {
  private(set) var stored: [Int] = []
  let stored1 = Signal()

  func store(_ value: Int) throws {
    try refuse(value)
    stored.append(value)
    stored1.fire()
  }

  func record(_ value: Int) {
    stored.append(value)
    stored1.fire()
  }
}

/// A class whose method is registered through its superclass.
private class Base: @unchecked Sendable {
  // Written only by synchronous handlers on the test's thread.
  let log: Recorder<String>

  init(log: Recorder<String>) {
    self.log = log
  }

  func received(_ text: String) {
    log.record("base:\(text)")
  }
}

private final class Derived: Base, @unchecked Sendable {}

@Suite("KeyedEvent: routing, counts and every registration form per key")
struct KeyedEventTests {
  @Test("a post reaches only its key's registrations and returns how many it reached")
  func routesToItsKey() {
    let keyed = KeyedEvent<Int, String>()
    let log = Recorder<String>()
    let tokens = (1...3).flatMap { key in
      [
        keyed[key].subscribe { log.record("\(key)a:\($0)") },
        keyed[key].subscribe { log.record("\(key)b:\($0)") },
      ]
    }
    #expect(keyed.keyCount == 3)

    #expect(keyed.post("x", to: 2) == 2)
    #expect(log.values == ["2a:x", "2b:x"])
    #expect(keyed[3].post("y") == 2, "the channel's post is the keyed event's with its key")
    #expect(log.values == ["2a:x", "2b:x", "3a:y", "3b:y"])
    tokens.forEach { $0.cancel() }
  }

  @Test("a post to a key nobody observes returns 0 and creates no key")
  func unobservedKey() {
    let keyed = KeyedEvent<String, Int>()
    let other = keyed["watched"].subscribe { _ in }
    let channel = keyed["nobody"]
    #expect(keyed.post(1, to: "nobody") == 0)
    #expect(channel.post(2) == 0)
    #expect(channel.observerCount == 0)
    #expect(!channel.isObserved)
    #expect(keyed.keyCount == 1, "posting, counting and forming a channel made no key")
    other.cancel()
    #expect(keyed.post(3, to: "watched") == 0)
    #expect(keyed.keyCount == 0)
  }

  @Test("all receives every post with its key, after the key's own handlers, uncounted")
  func allSeesEveryPost() {
    let keyed = KeyedEvent<Int, String>()
    let log = Recorder<String>()
    let audit = keyed.all.subscribe { key, payload in log.record("all \(key):\(payload)") }
    #expect(keyed.keyCount == 0, "registering on all creates no key")
    #expect(keyed.post("unseen", to: 7) == 0, "all's registrations are not counted")
    #expect(keyed.keyCount == 0)

    let token = keyed[1].subscribe(priority: -100) { log.record("1:\($0)") }
    #expect(keyed.post("a", to: 1) == 1)
    #expect(log.values == ["all 7:unseen", "1:a", "all 1:a"])
    audit.cancel()
    token.cancel()
  }

  @Test("the four closure forms of subscribe work on a key, by priority")
  func subscribeForms() async throws {
    let keyed = KeyedEvent<Int, Int>()
    let channel = keyed[1]
    let log = Recorder<String>()
    let asyncCalls = Recorder<String>()
    let asyncDone = Signal()
    let failures = Recorder<HandlerError>()
    let watch = keyed.errors.subscribe { failures.record($0) }
    let tokens = [
      channel.subscribe { log.record("plain \($0)") },
      channel.subscribe(priority: 5) { value in
        try refuse(value)
        log.record("throwing \(value)")
      },
      channel.subscribe(priority: 10) { log.record("first \($0)") },
      channel.subscribe { (value: Int) async in
        asyncCalls.record("async \(value)")
        asyncDone.fire()
      },
      channel.subscribe { (value: Int) async throws in
        try refuse(value)
        asyncCalls.record("async throwing \(value)")
        asyncDone.fire()
      },
    ]
    // Another key's handlers see nothing.
    let elsewhere = keyed[2].subscribe { log.record("other \($0)") }
    #expect(channel.observerCount == 5)

    #expect(channel.post(3) == 5)
    #expect(log.values == ["first 3", "throwing 3", "plain 3"])
    #expect(await asyncDone.arrival())
    #expect(await asyncDone.arrival())
    #expect(Set(asyncCalls.values) == ["async 3", "async throwing 3"])

    #expect(channel.post(-1) == 5)
    #expect(log.values.suffix(2) == ["first -1", "plain -1"])
    #expect(await asyncDone.arrival())
    await channel.flush()
    #expect(failures.count == 2, "the sync and the async throwing handlers each threw once")
    tokens.forEach { $0.cancel() }
    elsewhere.cancel()
    watch.cancel()
  }

  @Test("subscribeOnce on a key runs for its next post only, and its end removes the key")
  func subscribeOnce() {
    let keyed = KeyedEvent<Int, Int>()
    let log = Recorder<Int>()
    let token = keyed[1].subscribeOnce { log.record($0) }
    #expect(keyed.post(9, to: 2) == 0)
    #expect(keyed.post(1, to: 1) == 1)
    #expect(keyed.post(2, to: 1) == 0)
    #expect(log.values == [1])
    #expect(token.isCancelled)
    #expect(keyed.keyCount == 0)
  }

  @Test("an observer's closure, a method reference and a superclass method work on a key")
  func observerForms() {
    let keyed = KeyedEvent<Int, String>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    let c = Derived(log: log)
    keyed[1].register(a) { listener, text in listener.log.record("closure \(listener.name):\(text)")
    }
    keyed[1].register(b, function: Listener.received)
    keyed[1].register(c, function: Base.received)
    keyed[2].register(a, function: Listener.received)

    #expect(keyed.post("x", to: 1) == 3)
    #expect(log.values == ["closure A:x", "B:x", "base:x"])
    #expect(keyed.post("y", to: 2) == 1)
    #expect(log.values.last == "A:y")
  }

  @Test("a payload tuple is posted element by element and reaches methods taking the elements")
  func packForms() {
    let keyed = KeyedEvent<String, (String, Int)>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    keyed["files"].register(a, function: Listener.receivedPair)
    let token = keyed["files"].subscribe { text, number in log.record("sub:\(text),\(number)") }
    #expect(keyed["files"].post("report", 3) == 2)
    #expect(keyed.post(("notes", 4), to: "files") == 2)
    #expect(keyed["other"].post("none", 0) == 0)
    #expect(log.values == ["A:report,3", "sub:report,3", "A:notes,4", "sub:notes,4"])
    token.cancel()
  }

  @Test("a type-level registration lasts until unregister(T.self) on its key")
  func typeLevel() {
    let keyed = KeyedEvent<Int, String>()
    let log = Recorder<String>()
    keyed[1].register(Metrics.self) { text in log.record("metrics 1:\(text)") }
    keyed[2].register(Metrics.self) { text in log.record("metrics 2:\(text)") }
    keyed[1].register(Metrics.self) { text in log.record("metrics 1 again:\(text)") }
    #expect(keyed[1].observerCount == 1, "one registration per type, per key")
    #expect(keyed.post("a", to: 1) == 1)
    #expect(keyed.post("b", to: 2) == 1)
    #expect(log.values == ["metrics 1 again:a", "metrics 2:b"])

    keyed[1].unregister(Metrics.self)
    #expect(keyed.post("c", to: 1) == 0)
    #expect(keyed.keyCount == 1, "key 1 was removed; key 2's type registration stays")
    keyed[2].unregister(Metrics.self)
    #expect(keyed.keyCount == 0)
  }

  @Test("an actor registers on a key, with a plain or a throwing handler")
  func actorForms() async throws {
    let keyed = KeyedEvent<Int, Int>()
    let failures = Recorder<HandlerError>()
    let watch = keyed.errors.subscribe { failures.record($0) }
    let vault = Vault()
    let other = Vault()
    keyed[1].register(vault) { me, value in me.record(value) }
    let line = #line + 1
    keyed[2].register(other) { me, value in try me.store(value) }
    #expect(keyed.post(5, to: 1) == 1)
    #expect(await vault.stored1.arrival())
    #expect(keyed.post(-2, to: 2) == 1)
    #expect(keyed.post(6, to: 2) == 1)
    #expect(await other.stored1.arrival())
    await keyed[2].flush()
    #expect(await vault.stored == [5])
    #expect(await other.stored == [6])
    let failure = try #require(failures.values.first)
    #expect(failure.error as? Refusal == Refusal(value: -2))
    #expect(failure.line == line)
    watch.cancel()
  }

  @Test("one registration per observer holds per key: two keys, two registrations")
  func oneRegistrationPerKey() {
    let keyed = KeyedEvent<Int, String>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    let first = keyed[1].register(a, function: Listener.received)
    keyed[2].register(a, function: Listener.received)
    #expect(keyed[1].observerCount == 1)
    #expect(keyed[2].observerCount == 1)
    #expect(!first.isCancelled, "registering on another key replaced nothing")

    let again = keyed[1].register(a) { listener, text in listener.log.record("again:\(text)") }
    #expect(first.isCancelled, "re-registering on the same key ends the old registration")
    #expect(keyed[1].observerCount == 1)
    #expect(keyed.post("x", to: 1) == 1)
    #expect(keyed.post("y", to: 2) == 1)
    #expect(log.values == ["again:x", "A:y"])
    again.cancel()
  }

  @Test("unregister on a channel ends that key's registration; on the keyed event, every key's")
  func unregisterObserver() {
    let keyed = KeyedEvent<Int, String>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    for key in 1...3 { keyed[key].register(a, function: Listener.received) }
    keyed[2].register(b, function: Listener.received)

    keyed[1].unregister(a)
    #expect(keyed.post("1", to: 1) == 0)
    #expect(keyed.post("2", to: 2) == 2)
    #expect(keyed.keyCount == 2, "key 1 was left empty and removed")

    keyed.unregister(a)
    #expect(keyed.post("2", to: 2) == 1)
    #expect(keyed.post("3", to: 3) == 0)
    #expect(keyed.keyCount == 1)
    #expect(log.values == ["A:2", "B:2", "B:2"])
  }

  @Test("unregisterAll on a channel ends every registration of that key only")
  func unregisterAll() {
    let keyed = KeyedEvent<Int, String>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    keyed[1].register(a, function: Listener.received)
    keyed[1].register(Metrics.self) { text in log.record("type:\(text)") }
    let token = keyed[1].subscribe { log.record("closure:\($0)") }
    let kept = keyed[2].subscribe { log.record("2:\($0)") }

    keyed[1].unregisterAll()
    #expect(token.isCancelled)
    #expect(keyed.post("x", to: 1) == 0)
    #expect(keyed.post("y", to: 2) == 1)
    #expect(log.values == ["2:y"])
    #expect(keyed.keyCount == 1)
    kept.cancel()
  }

  @Test("observerCount and isObserved are per key")
  func countsPerKey() {
    let keyed = KeyedEvent<Int, Int>()
    let tokens = [keyed[1].subscribe { _ in }, keyed[1].subscribe { _ in }]
    #expect(keyed[1].observerCount == 2)
    #expect(keyed[1].isObserved)
    #expect(keyed[2].observerCount == 0)
    #expect(!keyed[2].isObserved)
    tokens[0].cancel()
    #expect(keyed[1].observerCount == 1)
    tokens[1].cancel()
    #expect(!keyed[1].isObserved)
    #expect(keyed.keyCount == 0)
  }

  @Test("a throw on any key reaches the keyed event's errors, with where it was written")
  func errorsOfEveryKey() throws {
    let keyed = KeyedEvent<Int, Int>()
    let failures = Recorder<HandlerError>()
    let watch = keyed.errors.subscribe { failures.record($0) }
    let log = Recorder<String>()
    let ledger = Tracked("ledger")
    let (first, firstLine) = (keyed[1].subscribe { try refuse($0) }, #line)
    let after = keyed[1].subscribe { log.record("after \($0)") }
    let secondLine = #line + 1
    keyed[2].register(ledger) { _, value in try refuse(value) }

    #expect(keyed.post(-1, to: 1) == 2)
    #expect(keyed.post(-2, to: 2) == 1)
    #expect(keyed.post(3, to: 1) == 2)
    #expect(log.values == ["after -1", "after 3"], "a throw never stops the other handlers")
    #expect(failures.count == 2)
    let one = try #require(failures.values.first)
    let two = try #require(failures.values.last)
    #expect(one.error as? Refusal == Refusal(value: -1))
    #expect(one.fileID == "EventTypedTests/KeyedEventTests.swift")
    #expect(one.line == firstLine)
    #expect(two.error as? Refusal == Refusal(value: -2))
    #expect(two.line == secondLine)
    watch.cancel()
    first.cancel()
    after.cancel()
  }

  @Test("the debug descriptions name the keys and a channel's registrations")
  func debugDescriptions() {
    let keyed = KeyedEvent<Int, String>()
    let token = keyed[4].subscribe { _ in }
    #expect(String(reflecting: keyed).contains("1 keys"))
    #expect(String(reflecting: keyed[4]).contains("1 registrations"))
    token.cancel()
  }
}
