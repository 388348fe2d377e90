// expect: compiles
//
// App-shaped: a `@MainActor` screen registers itself in every form, with no `Sendable`
// conformance and no `[weak self]`.
import Events
import Foundation

enum Downloads {
  static let didFinish = Event<(String, Int)>()
  static let didStart = Event<String>()
  static let didReset = Event<Void>()
}

@MainActor final class Screen {
  private var shown: [String] = []
  private var subscriptions = Set<Subscription>()
  private let model = NonSendableModel()

  init(center: NotificationCenter) {
    Downloads.didFinish.register(self, function: Screen.show)
    Downloads.didStart.register(self, function: Self.started)
    Downloads.didReset.register(self, function: Screen.reset)
    Downloads.didStart.register(self) { screen, name in screen.shown.append(name) }
    Downloads.didStart.register(Screen.self, function: Screen.log)
    Downloads.didStart.subscribe { name in self.model.names.append(name) }
      .store(in: &subscriptions)
    Downloads.didStart.subscribeOnce { name in self.shown.append(name) }
    center.observe(.init("Theme")) { _ in self.reset() }.store(in: &subscriptions)
    center.observe(.init("Theme"), owner: self) { screen, _ in screen.reset() }
    center.observe(.init("Theme"), target: self, action: Screen.themeChanged)
      .store(in: &subscriptions)
    center.observe(.init("Theme"), target: self, action: Screen.reset).store(in: &subscriptions)
    center.observeOnce(.init("Launch")) { _ in self.reset() }
  }

  func show(_ name: String, _ bytes: Int) { shown.append(name) }
  func started(_ name: String) { shown.append(name) }
  func reset() { shown = [] }
  func themeChanged(_ note: Notification) { reset() }
  static func log(_ name: String) {}
}

final class NonSendableModel {
  var names: [String] = []
}
