import EventBroadcast
import EventTestSupport
import Testing

private protocol Update {
  func updateTitle(title: String)
}

private protocol Theme {
  func apply(theme: String)
}

/// Two protocols with the same name in different scopes, which the original broadcaster mixed up.
private enum Inbox {
  protocol Changed {
    func changed()
  }
}

private enum Outbox {
  protocol Changed {
    func changed()
  }
}

private struct Point: Update {
  func updateTitle(title: String) {}
}

/// An observer that logs each call as "name:title" and runs an optional action on it.
private final class Listener: Update, Theme, Inbox.Changed, Outbox.Changed {
  let name: String
  let log: Recorder<String>
  var onUpdate: ((Listener) -> Void)?

  init(_ name: String, log: Recorder<String>) {
    self.name = name
    self.log = log
  }

  func updateTitle(title: String) {
    log.record("\(name):\(title)")
    onUpdate?(self)
  }

  func apply(theme: String) {
    log.record("\(name):theme \(theme)")
  }

  func changed() {
    log.record("\(name):changed")
  }
}

/// An observer that unregisters itself from its own `deinit`, which crashed the original.
private final class SelfUnregistering: Update {
  let hub: Broadcaster
  let deinits: Counter

  init(hub: Broadcaster, deinits: Counter) {
    self.hub = hub
    self.deinits = deinits
  }

  func updateTitle(title: String) {}

  deinit {
    hub.unregister((any Update).self, observer: self)
    deinits.increment()
  }
}

@Suite("Broadcaster")
struct BroadcasterTests {
  let hub = Broadcaster()
  let log = Recorder<String>()

  @Test("notify calls every registered observer once, in registration order")
  func notifiesInRegistrationOrder() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    let third = Listener("third", log: log)
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)
    hub.register((any Update).self, observer: third)

    hub.notify((any Update).self) { $0.updateTitle(title: "hello") }

    #expect(log.values == ["first:hello", "second:hello", "third:hello"])
    #expect(hub.observerCount((any Update).self) == 3)
  }

  @Test("registering the same observer twice delivers once and moves it to the end")
  func reRegistrationDeliversOnce() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)
    hub.register((any Update).self, observer: first)

    hub.notify((any Update).self) { $0.updateTitle(title: "x") }

    #expect(log.values == ["second:x", "first:x"])
    #expect(hub.observerCount((any Update).self) == 2)
  }

  @Test("re-registering ends the previous registration as cancel would")
  func reRegistrationCancelsTheOldToken() {
    let observer = Listener("one", log: log)
    let old = hub.register((any Update).self, observer: observer)
    let new = hub.register((any Update).self, observer: observer)
    #expect(old.isCancelled)
    #expect(!new.isCancelled)

    old.cancel()
    hub.notify((any Update).self) { $0.updateTitle(title: "still") }

    #expect(log.values == ["one:still"])
  }

  @Test("one observer registered for several protocols gets each notification once")
  func oneObserverSeveralProtocols() {
    let observer = Listener("one", log: log)
    hub.register((any Update).self, observer: observer)
    hub.register((any Theme).self, observer: observer)

    hub.notify((any Update).self) { $0.updateTitle(title: "t") }
    hub.notify((any Theme).self) { $0.apply(theme: "dark") }

    #expect(log.values == ["one:t", "one:theme dark"])
  }

  @Test("protocols with the same name in different scopes are different channels")
  func channelsAreKeyedByIdentityNotName() {
    #expect(
      String(describing: (any Inbox.Changed).self) == String(describing: (any Outbox.Changed).self))
    let inboxObserver = Listener("inbox", log: log)
    let outboxObserver = Listener("outbox", log: log)
    hub.register((any Inbox.Changed).self, observer: inboxObserver)
    hub.register((any Outbox.Changed).self, observer: outboxObserver)

    hub.notify((any Inbox.Changed).self) { $0.changed() }

    #expect(log.values == ["inbox:changed"])
    #expect(hub.observerCount((any Inbox.Changed).self) == 1)
    #expect(hub.observerCount((any Outbox.Changed).self) == 1)
  }

  @Test("a deallocated observer is not kept alive, never called, and no longer counted")
  func observersAreWeak() {
    let survivor = Listener("survivor", log: log)
    weak var released: Listener?
    do {
      let transient = Listener("transient", log: log)
      released = transient
      hub.register((any Update).self, observer: transient)
      hub.register((any Update).self, observer: survivor)
      #expect(hub.observerCount((any Update).self) == 2)
    }

    #expect(released == nil)
    #expect(hub.observerCount((any Update).self) == 1)
    hub.notify((any Update).self) { $0.updateTitle(title: "after") }
    #expect(log.values == ["survivor:after"])
  }

  @Test("the registration lasts without its token; cancelling the token ends it")
  func subscriptionIsOptional() {
    let kept = Listener("kept", log: log)
    let cancelled = Listener("cancelled", log: log)
    _ = hub.register((any Update).self, observer: kept)
    let token = hub.register((any Update).self, observer: cancelled)

    hub.notify((any Update).self) { $0.updateTitle(title: "1") }
    token.cancel()
    hub.notify((any Update).self) { $0.updateTitle(title: "2") }

    #expect(log.values == ["kept:1", "cancelled:1", "kept:2"])
    #expect(token.isCancelled)
    #expect(hub.observerCount((any Update).self) == 1)
  }

  @Test("unregister ends only that observer's registration for that protocol")
  func unregisterIsScoped() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)
    let themeToken = hub.register((any Theme).self, observer: first)

    hub.unregister((any Update).self, observer: first)
    hub.notify((any Update).self) { $0.updateTitle(title: "u") }
    hub.notify((any Theme).self) { $0.apply(theme: "light") }

    #expect(log.values == ["second:u", "first:theme light"])
    #expect(!themeToken.isCancelled)
    #expect(hub.observerCount((any Update).self) == 1)
  }

  @Test("unregistering an observer that is not registered does nothing")
  func unregisterUnknownIsNoOp() {
    let registered = Listener("registered", log: log)
    let stranger = Listener("stranger", log: log)
    hub.register((any Update).self, observer: registered)

    hub.unregister((any Update).self, observer: stranger)
    hub.unregister((any Theme).self, observer: registered)
    hub.unregister((any Update).self, observer: Point())
    hub.notify((any Update).self) { $0.updateTitle(title: "ok") }

    #expect(log.values == ["registered:ok"])
  }

  @Test("unregisterAll removes every observer of one protocol and cancels their tokens")
  func unregisterAllIsScoped() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    let token = hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)
    hub.register((any Theme).self, observer: second)

    hub.unregisterAll((any Update).self)
    hub.notify((any Update).self) { $0.updateTitle(title: "gone") }
    hub.notify((any Theme).self) { $0.apply(theme: "kept") }

    #expect(log.values == ["second:theme kept"])
    #expect(token.isCancelled)
    #expect(hub.observerCount((any Update).self) == 0)
    #expect(hub.observerCount((any Theme).self) == 1)
  }

  @Test("a protocol nobody registered for has no observers and notifying it calls nothing")
  func unusedProtocol() {
    let calls = Counter()
    hub.notify((any Update).self) { _ in calls.increment() }
    #expect(calls.count == 0)
    #expect(hub.observerCount((any Update).self) == 0)
  }

  @Test("separate broadcasters never share observers")
  func instancesAreIndependent() {
    let other = Broadcaster()
    let observer = Listener("one", log: log)
    hub.register((any Update).self, observer: observer)

    other.notify((any Update).self) { $0.updateTitle(title: "other") }
    hub.notify((any Update).self) { $0.updateTitle(title: "mine") }

    #expect(log.values == ["one:mine"])
    #expect(other.observerCount((any Update).self) == 0)
  }

  @Test("an observer may unregister itself from its own deinit")
  func unregisterFromDeinit() {
    let deinits = Counter()
    let bystander = Listener("bystander", log: log)
    weak var released: SelfUnregistering?
    do {
      let observer = SelfUnregistering(hub: hub, deinits: deinits)
      released = observer
      hub.register((any Update).self, observer: observer)
      hub.register((any Update).self, observer: bystander)
    }

    #expect(released == nil)
    #expect(deinits.count == 1)
    #expect(hub.observerCount((any Update).self) == 1)
    hub.notify((any Update).self) { $0.updateTitle(title: "left") }
    #expect(log.values == ["bystander:left"])
  }

  @Test("a value-type observer stops the program with a message naming its type")
  func valueTypeObserverIsRefused() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      Broadcaster().register((any Update).self, observer: Point())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Point is a value type; only class instances can be observers"))
  }

  @Test("a value converted to AnyObject stops the program rather than registering a dead box")
  func boxedValueObserverIsRefused() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      Broadcaster().register(AnyObject.self, observer: Point() as AnyObject)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains("Broadcaster.register: Point converted to AnyObject is not an observer"))
  }
}

@Suite("Broadcaster re-entrancy")
struct BroadcasterReentrancyTests {
  let hub = Broadcaster()
  let log = Recorder<String>()

  @Test("an observer may notify the same protocol from inside a notification")
  func nestedNotify() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    var nested = false
    first.onUpdate = { _ in
      guard !nested else { return }
      nested = true
      hub.notify((any Update).self) { $0.updateTitle(title: "inner") }
    }
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)

    hub.notify((any Update).self) { $0.updateTitle(title: "outer") }

    #expect(log.values == ["first:outer", "first:inner", "second:inner", "second:outer"])
  }

  @Test("an observer registered during a notification is called from the next one on")
  func registerDuringNotify() {
    let first = Listener("first", log: log)
    let late = Listener("late", log: log)
    first.onUpdate = { _ in hub.register((any Update).self, observer: late) }
    hub.register((any Update).self, observer: first)

    hub.notify((any Update).self) { $0.updateTitle(title: "1") }
    first.onUpdate = nil
    hub.notify((any Update).self) { $0.updateTitle(title: "2") }

    #expect(log.values == ["first:1", "first:2", "late:2"])
  }

  @Test("an observer unregistered by an earlier one in the same notification is skipped")
  func unregisterDuringNotify() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    let third = Listener("third", log: log)
    first.onUpdate = { _ in hub.unregister((any Update).self, observer: second) }
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)
    hub.register((any Update).self, observer: third)

    hub.notify((any Update).self) { $0.updateTitle(title: "r") }

    #expect(log.values == ["first:r", "third:r"])
    #expect(hub.observerCount((any Update).self) == 2)
  }

  @Test("a token cancelled by an earlier observer in the same notification is skipped")
  func cancelDuringNotify() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    hub.register((any Update).self, observer: first)
    let token = hub.register((any Update).self, observer: second)
    first.onUpdate = { _ in token.cancel() }

    hub.notify((any Update).self) { $0.updateTitle(title: "c") }

    #expect(log.values == ["first:c"])
  }

  @Test("unregisterAll from inside a notification skips everyone after the caller")
  func unregisterAllDuringNotify() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    first.onUpdate = { _ in hub.unregisterAll((any Update).self) }
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)

    hub.notify((any Update).self) { $0.updateTitle(title: "a") }
    hub.notify((any Update).self) { $0.updateTitle(title: "b") }

    #expect(log.values == ["first:a"])
    #expect(hub.observerCount((any Update).self) == 0)
  }

  @Test("an observer released by an earlier one in the same notification is gone at once")
  func releaseDuringNotify() {
    let first = Listener("first", log: log)
    var second: Listener? = Listener("second", log: log)
    let weakSecond = Weak(second)
    var goneDuringNotify = false
    first.onUpdate = { _ in
      second = nil
      goneDuringNotify = weakSecond.object == nil
    }
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second!)

    hub.notify((any Update).self) { $0.updateTitle(title: "z") }

    #expect(goneDuringNotify)
    #expect(log.values == ["first:z"])
    #expect(hub.observerCount((any Update).self) == 1)
  }

  @Test("an observer that unregisters itself while being notified is not called again")
  func unregisterSelfDuringNotify() {
    let first = Listener("first", log: log)
    let second = Listener("second", log: log)
    first.onUpdate = { me in hub.unregister((any Update).self, observer: me) }
    hub.register((any Update).self, observer: first)
    hub.register((any Update).self, observer: second)

    hub.notify((any Update).self) { $0.updateTitle(title: "1") }
    hub.notify((any Update).self) { $0.updateTitle(title: "2") }

    #expect(log.values == ["first:1", "second:1", "second:2"])
  }
}

/// A class whose every specialization is a channel of its own.
private final class Level<Inner> {
  let calls = Counter()
}

/// Registers a `Level` observer for `Level<Inner>` and for each of `depth` deeper levels, then
/// notifies each level once, checking that exactly its own observer is called.
private func registerLevels<Inner>(
  _ hub: Broadcaster, depth: Int, _: Inner.Type, observers: inout [AnyObject]
) -> Bool {
  let observer = Level<Inner>()
  observers.append(observer)
  hub.register(Level<Inner>.self, observer: observer)
  let deeper =
    depth == 0
    ? true : registerLevels(hub, depth: depth - 1, Level<Inner>.self, observers: &observers)
  hub.notify(Level<Inner>.self) { $0.calls.increment() }
  return deeper && observer.calls.count == 1
}

@Suite("Broadcaster channels")
struct BroadcasterChannelTests {
  @Test("every protocol keeps its own channel as the broadcaster's index of channels grows")
  func manyChannels() {
    let hub = Broadcaster()
    var observers: [AnyObject] = []
    #expect(registerLevels(hub, depth: 40, Int.self, observers: &observers))
    #expect(hub.observerCount(Level<Int>.self) == 1)
    #expect(hub.observerCount(Level<Level<Level<Int>>>.self) == 1)
    #expect(hub.observerCount(Level<String>.self) == 0)
  }
}
