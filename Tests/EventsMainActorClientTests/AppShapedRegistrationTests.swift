import EventCore
import EventTestSupport
import Events
import Foundation
import Testing

// This target is built with `.defaultIsolation(MainActor.self)` (SE-0466), as Xcode creates an
// app target: every declaration below is isolated to the main actor unless it says otherwise,
// and none of the screens is `Sendable` by declaration. Each test writes every registration
// form of one module as app code writes it, posts from a background thread, and checks that
// each handler ran, once, on the main actor.

/// A screen that observes in every form and records where each handler ran.
final class Screen {
  private(set) var log: [String] = []
  private(set) var offMainActor = 0
  var tokens = Set<Subscription>()

  static var typeLevelLog: [String] = []

  func record(_ entry: String) {
    if !MainActorDetection.isOnMainActor { offMainActor += 1 }
    log.append(entry)
  }

  func show(_ text: String) { record("function \(text)") }
  func refresh(_ note: Notification) { record("target-action") }
  func reload() { record("target-action, no argument") }
  func refreshUpdate() { record("broadcast") }

  static func typeLevel(_ text: String) {
    if MainActorDetection.isOnMainActor { typeLevelLog.append(text) }
  }

  /// The spelling a class body reaches for.
  func registerThroughSelf(_ event: Event<String>) {
    event.register(self, function: Self.show)
  }

  /// The same spelling on one key of a keyed event.
  func registerThroughSelf(_ channel: KeyedEvent<DocumentID, String>.Channel) {
    channel.register(self, function: Self.show)
  }
}

/// A key as app code declares it here: `nonisolated`, or its `Hashable` conformance would be
/// main-actor isolated and could not satisfy `KeyedEvent`'s `Key`.
nonisolated struct DocumentID: Hashable, Sendable {
  let raw: Int
}

/// An actor that observes with the actor forms.
actor Tally {
  private(set) var values: [String] = []
  let arrived = Signal()

  func record(_ value: String) {
    values.append(value)
    arrived.fire()
  }
}

protocol Update: AnyObject {
  func refreshUpdate()
}

extension Screen: Update {}

@Suite("An app target with default MainActor isolation", .serialized)
struct AppShapedRegistrationTests {
  @Test("every Event registration form runs on the main actor for a background post")
  func eventForms() async {
    let event = Event<String>()
    let method = Screen()
    let throughSelf = Screen()
    let closure = Screen()
    let tokens = Screen()
    let tally = Tally()
    let asyncRan = Signal()
    event.register(method, function: Screen.show)
    throughSelf.registerThroughSelf(event)
    event.register(closure) { screen, text in screen.record("handler \(text)") }
    event.register(Screen.self, function: Screen.typeLevel)
    event.subscribe { text in tokens.record("subscribe \(text)") }.store(in: &tokens.tokens)
    event.subscribeOnce { text in tokens.record("once \(text)") }
    event.subscribe { text async in
      tokens.record("async \(text)")
      asyncRan.fire()
    }
    .store(in: &tokens.tokens)
    event.register(tally) { tally, text in tally.record(text) }
    Screen.typeLevelLog = []

    #expect(onOtherThread { event.post("a") })
    await drainMainQueue()
    #expect(await asyncRan.arrival())
    #expect(await tally.arrived.arrival())

    #expect(method.log == ["function a"])
    #expect(throughSelf.log == ["function a"])
    #expect(closure.log == ["handler a"])
    #expect(Screen.typeLevelLog == ["a"])
    #expect(tokens.log == ["subscribe a", "once a", "async a"])
    #expect(await tally.values == ["a"])
    for screen in [method, throughSelf, closure, tokens] { #expect(screen.offMainActor == 0) }
  }

  @Test("every Channel registration form runs on the main actor for a background post")
  func channelForms() async {
    let documents = KeyedEvent<DocumentID, String>()
    let id = DocumentID(raw: 1)
    let channel = documents[id]
    let method = Screen()
    let throughSelf = Screen()
    let closure = Screen()
    let tokens = Screen()
    let tally = Tally()
    let asyncRan = Signal()
    channel.register(method, function: Screen.show)
    throughSelf.registerThroughSelf(channel)
    channel.register(closure) { screen, text in screen.record("handler \(text)") }
    channel.subscribe { text in tokens.record("subscribe \(text)") }.store(in: &tokens.tokens)
    channel.subscribeOnce { text in tokens.record("once \(text)") }
    channel.subscribe { text async in
      tokens.record("async \(text)")
      asyncRan.fire()
    }
    .store(in: &tokens.tokens)
    channel.register(tally) { tally, text in tally.record(text) }

    #expect(onOtherThread { documents.post("a", to: id) })
    #expect(onOtherThread { documents.post("other", to: DocumentID(raw: 2)) })
    await drainMainQueue()
    #expect(await asyncRan.arrival())
    #expect(await tally.arrived.arrival())

    #expect(method.log == ["function a"])
    #expect(throughSelf.log == ["function a"])
    #expect(closure.log == ["handler a"])
    #expect(tokens.log == ["subscribe a", "once a", "async a"])
    #expect(await tally.values == ["a"])
    for screen in [method, throughSelf, closure, tokens] { #expect(screen.offMainActor == 0) }
  }

  @Test("a post made on the main actor runs the main-actor handlers before it returns")
  func inlineOnMainActor() {
    let event = Event<String>()
    let method = Screen()
    let closure = Screen()
    event.register(method, function: Screen.show)
    event.register(closure) { screen, text in screen.record("handler \(text)") }
    event.post("b")
    #expect(method.log == ["function b"])
    #expect(closure.log == ["handler b"])
  }

  @Test("every EventRAII registration form runs on the main actor for a background post")
  func notificationForms() async {
    let center = NotificationCenter()
    let name = Notification.Name("EventsMainActorClientTests.forms")
    let screen = Screen()
    let owner = Screen()
    let tally = Tally()
    center.observe(name) { _ in screen.record("token-held") }.store(in: &screen.tokens)
    center.observe(name, owner: owner) { owner, _ in owner.record("owner-bound") }
    center.observe(name, target: screen, action: Screen.refresh).store(in: &screen.tokens)
    center.observe(name, target: screen, action: Screen.reload).store(in: &screen.tokens)
    center.observeOnce(name) { _ in screen.record("once") }
    center.observe(name, owner: tally) { tally, note in tally.record(note.name.rawValue) }

    #expect(onOtherThread { center.post(name: name, object: nil) })
    await drainMainQueue()
    #expect(await tally.arrived.arrival())

    #expect(
      screen.log == ["token-held", "target-action", "target-action, no argument", "once"])
    #expect(owner.log == ["owner-bound"])
    #expect(await tally.values == [name.rawValue])
    #expect(screen.offMainActor == 0 && owner.offMainActor == 0)
  }

  @Test("a Broadcaster observer registered from app code is notified from it")
  func broadcasterForms() {
    let broadcaster = Broadcaster()
    let screen = Screen()
    broadcaster.register((any Update).self, observer: screen)
    broadcaster.notify((any Update).self) { $0.refreshUpdate() }
    #expect(screen.log == ["broadcast"])
    #expect(broadcaster.observerCount((any Update).self) == 1)
  }

  @Test("every EventConditions registration form delivers to app code")
  func conditionsForms() {
    let center = NotificationCenter()
    let name = Notification.Name("EventsMainActorClientTests.conditions")
    let event = Event<Int>()
    let screen = Screen()
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner(name.rawValue))
    receiver.add(NotificationConditioner("event"))
    receiver.add(NotificationConditioner("skipped"))
    receiver.onVerified { screen.record("verified") }.store(in: &screen.tokens)
    receiver.onIgnored { skipped in screen.record("ignored \(skipped)") }
      .store(in: &screen.tokens)
    receiver.listen(to: name, center: center).store(in: &screen.tokens)
    receiver.listen(to: event, as: "event").store(in: &screen.tokens)
    center.post(name: name, object: nil)
    event.post(1)
    receiver.ignore("skipped")
    #expect(screen.log == ["ignored skipped", "verified"])
  }

  @Test("a screen that observes itself in every form needs no [weak self] and is released")
  func noRetainCycle() {
    let event = Event<String>()
    let center = NotificationCenter()
    let name = Notification.Name("EventsMainActorClientTests.released")
    var screen: Screen? = Screen()
    let released = Weak(screen)
    if let screen {
      event.register(screen, function: Screen.show)
      event.register(Screen.self, function: Screen.typeLevel)
      center.observe(name, owner: screen) { screen, _ in screen.record("owner-bound") }
      center.observe(name, target: screen, action: Screen.refresh).store(in: &screen.tokens)
      screen.registerThroughSelf(event)
    }
    screen = nil
    #expect(released.object == nil)
    event.unregister(Screen.self)
    #expect(event.observerCount == 0)
  }
}
