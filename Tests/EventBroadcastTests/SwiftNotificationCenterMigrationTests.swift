import EventBroadcast
import Testing

// The call sites below are SwiftNotificationCenter's, character for character. This package
// builds with the ExistentialAny upcoming feature, under which a bare protocol name used as a
// type (`Update.self`) is diagnosed, so the protocol is declared as `UpdateProtocol` and `Update`
// names its existential. In a client with default settings (Swift 5 or 6 mode), declaring
// `protocol Update` directly works with the same call sites.
private protocol UpdateProtocol {
  func updateTitle(title: String)
}

private typealias Update = any UpdateProtocol

private final class ViewController: UpdateProtocol {
  var titles: [String] = []

  func updateTitle(title: String) {
    titles.append(title)
  }
}

/// Uses the shared broadcaster, so its tests run one at a time.
@Suite("Migrating from SwiftNotificationCenter", .serialized)
struct SwiftNotificationCenterMigrationTests {
  @Test("the original register, notify and unregister call sites work unchanged")
  func originalCallSites() {
    let vc = ViewController()

    Broadcaster.register(Update.self, observer: vc)
    Broadcaster.notify(Update.self) {
      $0.updateTitle(title: "new title")
    }
    #expect(vc.titles == ["new title"])

    Broadcaster.unregister(Update.self, observer: vc)
    Broadcaster.notify(Update.self) {
      $0.updateTitle(title: "after unregister")
    }
    #expect(vc.titles == ["new title"])
  }

  @Test("the static forms act on Broadcaster.shared")
  func staticFormsForwardToShared() {
    let first = ViewController()
    let second = ViewController()

    let token = Broadcaster.register(Update.self, observer: first)
    Broadcaster.shared.register(Update.self, observer: second)
    #expect(Broadcaster.observerCount(Update.self) == 2)
    #expect(Broadcaster.shared.observerCount(Update.self) == 2)

    Broadcaster.shared.notify(Update.self) { $0.updateTitle(title: "via shared") }
    #expect(first.titles == ["via shared"])
    #expect(second.titles == ["via shared"])

    Broadcaster.unregisterAll(Update.self)
    #expect(token.isCancelled)
    #expect(Broadcaster.shared.observerCount(Update.self) == 0)
  }
}
