import EventTestSupport
import Events
import Foundation
import Testing

// This target is compiled in Swift 5 language mode (see Package.swift), so these call shapes
// are proven to compile, and to pick the same overloads, for Swift 5 clients as for Swift 6
// ones (the other test targets).

private final class Screen {
  var shown: [String] = []
  func show(_ value: String) { shown.append(value) }
}

@Suite("Swift 5 client")
struct Swift5CallShapesTests {
  @Test("a closure literal with no await selects the synchronous subscribe")
  func synchronousSubscribe() {
    let event = Event<String>()
    let log = Recorder<String>()
    let token = event.subscribe { value in log.record(value) }
    event.post("a")
    #expect(log.values == ["a"])
    withExtendedLifetime(token) {}
  }

  @Test("the additions' call shapes compile and behave as in Swift 6")
  func additions() async {
    let event = Event<String>(delivery: .synchronous, replay: .latest)
    event.post("x")
    #expect(event.latest == "x")
    let log = Recorder<String>()
    event.subscribeOnce { log.record("once \($0)") }
    let screen = Screen()
    event.register(screen, function: Screen.show)
    #expect(screen.shown == ["x"])
    let arrived = Signal()
    let asynchronous = event.subscribe { value async in
      await Task.yield()
      log.record("async \(value)")
      arrived.fire()
    }
    #expect(await arrived.arrival())
    #expect(log.values == ["once x", "async x"])
    event.clearReplay()
    #expect(event.latest == nil)
    _ = Event<Int>(replay: .last(3))
    _ = Event<Int>(replay: .untilObserved)
    let center = NotificationCenter()
    let once = Counter()
    center.observeOnce(Notification.Name("swift5"), object: nil, delivery: .synchronous) { _ in
      once.increment()
    }
    center.post(name: Notification.Name("swift5"), object: nil)
    #expect(once.count == 1)
    withExtendedLifetime(asynchronous) {}
  }
}

private protocol Update: AnyObject {
  func refresh()
}

private final class Panel: Update {
  var refreshes = 0
  func refresh() { refreshes += 1 }
  func changed(_ note: Notification) { refreshes += 1 }
  func changedPlain() { refreshes += 1 }
}

private enum Metrics {
  // `@Sendable`: Swift 5 does not infer it for a static method (Swift 6 does, SE-0418), and the
  // type-level `register` takes a `@Sendable` function; without it Swift 5 warns "converting
  // non-Sendable function value to '@isolated(any) @Sendable (String) -> Void' may introduce
  // data races".
  @Sendable static func count(_ value: String) {}
}

extension Swift5CallShapesTests {
  @Test("API.md's classic call shapes compile in Swift 5 mode, with their isolation rules")
  func classicShapes() async {
    let center = NotificationCenter()
    let name = Notification.Name("swift5.classic")
    let panel = Panel()
    let tokens = [
      center.observe(name) { _ in },
      center.observe(name, object: panel, delivery: .queue(DispatchQueue(label: "q"))) { _ in },
      center.observe(name, target: panel, action: Panel.changed),
      center.observe(name, target: panel, action: Panel.changedPlain),
    ]
    center.observe(name, owner: panel) { panel, _ in panel.refreshes += 1 }
    center.post(name: name, object: nil)
    #expect(panel.refreshes == 3)

    Broadcaster.register(Update.self, observer: panel)
    Broadcaster.notify(Update.self) { $0.refresh() }
    #expect(Broadcaster.observerCount(Update.self) >= 1)
    Broadcaster.unregister(Update.self, observer: panel)

    let event = Event<String>()
    event.register(Metrics.self, function: Metrics.count)
    event.register(panel) { panel, _ in panel.refreshes += 1 }
    event.post("x")
    #expect(panel.refreshes == 5)
    event.unregister(Metrics.self)
    event.unregister(panel)
    event.unregisterAll()

    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    let verified = receiver.onVerified {}
    await receiver.verified { receiver.check("a") }
    #expect(!receiver.isVerified)
    withExtendedLifetime((tokens, verified)) {}
  }
}

private actor Limiter {
  private(set) var seen: [String] = []
  let arrived = Signal()

  func start(_ event: Event<String>, _ center: NotificationCenter, _ name: Notification.Name) {
    event.register(self) { me, value in me.record(value) }
    center.observe(name, owner: self) { me, note in me.record(note.name.rawValue) }
  }

  func start(_ channel: KeyedEvent<Int, String>.Channel) {
    channel.register(self) { me, value in me.record(value) }
  }

  func record(_ value: String) {
    seen.append(value)
    if seen.count == 2 { arrived.fire() }
  }
}

@MainActor private final class MainScreen {
  var shown: [String] = []
  func show(_ value: String) { shown.append(value) }
}

/// Swift 5 does not diagnose a `@MainActor` registration made from nonisolated code; the method
/// still runs on the main actor.
private func wireFromNonisolatedCode(_ event: Event<String>, _ screen: MainScreen) {
  event.register(screen, function: MainScreen.show)
}

extension Swift5CallShapesTests {
  @Test("the actor forms and the @MainActor twins compile in Swift 5 mode")
  func isolationForms() async {
    let event = Event<String>()
    let center = NotificationCenter()
    let name = Notification.Name("swift5.actor")
    let limiter = Limiter()
    await limiter.start(event, center, name)
    event.post("a")
    center.post(name: name, object: nil)
    #expect(await limiter.arrived.arrival())
    #expect(await limiter.seen == ["a", "swift5.actor"])

    let screen = await MainScreen()
    wireFromNonisolatedCode(event, screen)
    event.post("b")
    await drainMainQueue()
    #expect(await screen.shown == ["b"])
  }
}

/// The same, on one key of a keyed event.
private func wireFromNonisolatedCode(
  _ channel: KeyedEvent<Int, String>.Channel, _ screen: MainScreen
) {
  channel.register(screen, function: MainScreen.show)
}

extension Swift5CallShapesTests {
  @Test("a keyed event's channel forms compile in Swift 5 mode and reach their key only")
  func channelForms() async {
    let keyed = KeyedEvent<Int, String>()
    let channel = keyed[1]
    let log = Recorder<String>()
    let screen = Screen()
    let panel = Panel()
    let token = channel.subscribe { value in log.record(value) }
    channel.subscribeOnce { log.record("once \($0)") }
    channel.register(screen, function: Screen.show)
    channel.register(panel) { panel, _ in panel.refreshes += 1 }
    channel.register(Metrics.self, function: Metrics.count)
    #expect(keyed.post("a", to: 1) == 5)
    #expect(keyed.post("b", to: 2) == 0)
    #expect(log.values == ["a", "once a"])
    #expect(screen.shown == ["a"] && panel.refreshes == 1)
    channel.unregister(Metrics.self)
    channel.unregister(panel)
    keyed.unregister(screen)
    token.cancel()
    #expect(keyed.keyCount == 0)

    let limiter = Limiter()
    await limiter.start(keyed[2])
    keyed.post("c", to: 2)
    keyed.post("d", to: 2)
    #expect(await limiter.arrived.arrival())
    #expect(await limiter.seen == ["c", "d"])

    let main = await MainScreen()
    wireFromNonisolatedCode(keyed[3], main)
    keyed.post("e", to: 3)
    await drainMainQueue()
    #expect(await main.shown == ["e"])
  }
}

private protocol Store: Actor {
  func record(_ value: Int)
}

private actor Ledger: Store {
  var values: [Int] = []
  let arrived = Signal()
  func record(_ value: Int) {
    values.append(value)
    arrived.fire()
  }
}

@Suite("Swift 5 client: broadcaster delivery")
struct Swift5BroadcasterDeliveryTests {
  @Test("register with a delivery, and notify with a plain or an async body, compile in Swift 5")
  func deliveryAndAsyncBodies() async {
    let hub = Broadcaster()
    let panel = Panel()
    let queue = DispatchQueue(label: "swift5.delivery")
    hub.register(Update.self, observer: panel, delivery: .queue(queue))
    Broadcaster.register(Update.self, observer: panel, delivery: .mainActor)
    Broadcaster.unregister(Update.self, observer: panel)
    hub.notify(Update.self) { $0.refresh() }
    #expect(drain(queue))
    #expect(panel.refreshes == 1)

    let ledger = Ledger()
    hub.register((any Store).self, observer: ledger)
    hub.notify((any Store).self) { await $0.record(1) }
    Broadcaster.notify((any Store).self) { await $0.record(2) }
    #expect(await ledger.arrived.arrival())
    #expect(await ledger.values == [1])
  }
}
