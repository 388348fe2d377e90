// default-isolation: MainActor
// expect: compiles
//
// An app target as Xcode creates it (default MainActor isolation): every class is main-actor
// isolated, so a screen registers itself in every form.
import Events
import Foundation

enum Downloads {
  static let didStart = Event<String>()
}

final class Screen {
  private var shown: [String] = []
  private var subscriptions = Set<Subscription>()

  init(center: NotificationCenter) {
    Downloads.didStart.register(self, function: Screen.started)
    Downloads.didStart.register(self, function: Self.started)
    Downloads.didStart.register(self) { screen, name in screen.shown.append(name) }
    Downloads.didStart.register(Screen.self, function: Screen.log)
    Downloads.didStart.subscribe { name in self.shown.append(name) }.store(in: &subscriptions)
    center.observe(.init("Theme"), owner: self) { screen, _ in screen.shown = [] }
    center.observe(.init("Theme"), target: self, action: Screen.themeChanged)
      .store(in: &subscriptions)
    center.observe(.init("Theme"), target: self, action: Screen.reset).store(in: &subscriptions)
  }

  func started(_ name: String) { shown.append(name) }
  func themeChanged(_ note: Notification) { shown = [] }
  func reset() { shown = [] }
  static func log(_ name: String) {}
}

nonisolated final class Model: Sendable {
  func wire(_ screen: Screen) async {
    await Downloads.didStart.register(screen, function: Screen.started)
  }
}
