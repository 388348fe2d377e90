import EventTestSupport
import Events
import Foundation
import Testing

// The README's examples, kept here verbatim (inside functions) so that they compile and do
// what the README says. Change both together.

@MainActor private final class ThemeScreen {
  var restyles = 0

  init(center: NotificationCenter) {
    center.observe(.themeDidChange, owner: self) { screen, _ in screen.restyles += 1 }
  }
}

extension Notification.Name {
  fileprivate static let themeDidChange = Notification.Name("ThemeDidChange")
}

private protocol TitleObserver: AnyObject {
  func titleDidChange(to title: String)
}

private final class Header: TitleObserver {
  var titles: [String] = []
  func titleDidChange(to title: String) { titles.append(title) }
}

private enum Downloads {
  static let didFinish = Event<(String, Int)>()
}

@MainActor private final class DownloadsScreen {
  private(set) var shown: [String] = []
  private var subscriptions = Set<Subscription>()

  init(log: Recorder<String>) {
    Downloads.didFinish.register(self) { screen, download in screen.show(download.0, download.1) }
    Downloads.didFinish.subscribe { name, bytes in log.record("\(name) \(bytes)") }
      .store(in: &subscriptions)
  }

  func show(_ name: String, _ bytes: Int) { shown.append("\(name), \(bytes) bytes") }
}

private enum Session {
  static let user = Event<String>(replay: .latest)
}

@MainActor private final class ProfileScreen {
  private(set) var title = "signed out"

  init() {
    Session.user.register(self) { screen, user in screen.title = user }
  }
}

private final class InboxScreen {
  let receiver = NotificationReceiver(repeats: false)
  private let subscriptions = SubscriptionBag()

  init(fired: Counter) {
    receiver.add(NotificationConditioner("profile"))
    receiver.add(NotificationConditioner("friends"))
    receiver.add(NotificationConditioner("messages", minCount: 3))
    receiver.onVerified { fired.increment() }
      .store(in: subscriptions)
  }
}

@Suite("README examples", .serialized)
struct ReadmeExamplesTests {
  @MainActor
  @Test("EventRAII: token-held and owner-bound observers")
  func raii() {
    let center = NotificationCenter()
    let log = Recorder<String>()
    let token = center.observe(.themeDidChange) { note in log.record(note.name.rawValue) }
    var screen: ThemeScreen? = ThemeScreen(center: center)
    let weakScreen = Weak(screen)
    center.post(name: .themeDidChange, object: nil)
    token.cancel()
    center.post(name: .themeDidChange, object: nil)
    #expect(log.values == ["ThemeDidChange"])
    #expect(screen?.restyles == 2)
    screen = nil
    #expect(weakScreen.object == nil)
    center.post(name: .themeDidChange, object: nil)
  }

  @Test("EventBroadcast: a protocol call on every observer")
  func broadcast() {
    let header = Header()
    Broadcaster.register((any TitleObserver).self, observer: header)
    Broadcaster.notify((any TitleObserver).self) { $0.titleDidChange(to: "Inbox") }
    #expect(header.titles == ["Inbox"])
    Broadcaster.unregisterAll((any TitleObserver).self)
  }

  @MainActor
  @Test("EventTyped: a method observer and a closure whose token the screen keeps")
  func typed() {
    let log = Recorder<String>()
    var screen: DownloadsScreen? = DownloadsScreen(log: log)
    Downloads.didFinish.post("report.pdf", 1024)
    #expect(screen?.shown == ["report.pdf, 1024 bytes"])
    #expect(log.values == ["report.pdf 1024"])
    screen = nil
    Downloads.didFinish.post("late.pdf", 1)
    #expect(log.values == ["report.pdf 1024"], "the closure's token ended with the screen")
  }

  @MainActor
  @Test("EventTyped: a screen created after the login reads it; a once-handler runs once")
  func replayAndOnce() {
    let log = Recorder<String>()
    Session.user.subscribeOnce { user in log.record(user) }
    Session.user.post("ada")
    let screen = ProfileScreen()
    #expect(screen.title == "ada")
    Session.user.post("grace")
    #expect(screen.title == "grace")
    #expect(log.values == ["ada"], "the once-handler ran for the first login only")
  }

  @Test("EventConditions: profile, a failed friends request and three messages")
  func conditions() {
    let fired = Counter()
    let screen = InboxScreen(fired: fired)
    screen.receiver.check("profile")
    screen.receiver.ignore("friends")
    for _ in 0..<3 { screen.receiver.check("messages") }
    #expect(fired.count == 1)
    #expect(screen.receiver.isVerified)
  }
}
