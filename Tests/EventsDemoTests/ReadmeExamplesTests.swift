import EventTestSupport
import Events
import Foundation
import Testing

// The README's examples, kept here verbatim (inside functions) so that they compile and do
// what the README says. Change both together.

private final class ThemeScreen {
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

private final class DownloadsScreen {
  var shown: [String] = []

  init() {
    Downloads.didFinish.register(self, function: DownloadsScreen.show)
  }

  func show(_ name: String, _ bytes: Int) { shown.append("\(name) \(bytes)") }
}

@Suite("README examples", .serialized)
struct ReadmeExamplesTests {
  @Test("EventRAII: token-held and owner-bound observers")
  func raii() {
    let center = NotificationCenter()
    let log = Recorder<String>()
    let token = center.observe(.themeDidChange) { note in log.record(note.name.rawValue) }
    var screen: ThemeScreen? = ThemeScreen(center: center)
    weak let weakScreen = screen
    center.post(name: .themeDidChange, object: nil)
    token.cancel()
    center.post(name: .themeDidChange, object: nil)
    #expect(log.values == ["ThemeDidChange"])
    #expect(screen?.restyles == 2)
    screen = nil
    #expect(weakScreen == nil)
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

  @Test("EventTyped: a method observer and a closure")
  func typed() {
    let downloads = DownloadsScreen()
    let log = Recorder<String>()
    let token = Downloads.didFinish.subscribe { name, bytes in log.record("\(name) \(bytes)") }
    Downloads.didFinish.post("report.pdf", 1024)
    #expect(downloads.shown == ["report.pdf 1024"])
    #expect(log.values == ["report.pdf 1024"])
    withExtendedLifetime(token) {}
  }

  @Test("EventConditions: profile, a failed friends request and three messages")
  func conditions() {
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(NotificationConditioner("profile"))
    receiver.add(NotificationConditioner("friends"))
    receiver.add(NotificationConditioner("messages", minCount: 3))
    let fired = Counter()
    let ready = receiver.onVerified { fired.increment() }

    receiver.check("profile")
    receiver.ignore("friends")
    for _ in 0..<3 { receiver.check("messages") }
    #expect(fired.count == 1)
    #expect(receiver.isVerified)
    withExtendedLifetime(ready) {}
  }
}
