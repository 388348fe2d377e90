import EventCore
import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let isolated = Notification.Name("EventRAIITests.isolated")
}

/// A `@MainActor` screen observing in every EventRAII form, with no `delivery: .mainActor`.
@MainActor
private final class Screen {
  var log: [String] = []
  var offMainActor = 0
  var tokens = Set<Subscription>()

  func record(_ entry: String) {
    if !MainActorDetection.isOnMainActor { offMainActor += 1 }
    log.append(entry)
  }

  func refresh(_ note: Notification) { record("target-action") }
  func reload() { record("target-action, no argument") }

  func start(_ center: NotificationCenter) {
    center.observe(.isolated) { _ in self.record("token-held") }.store(in: &tokens)
    center.observe(.isolated, owner: self) { screen, _ in screen.record("owner-bound") }
    center.observe(.isolated, target: self, action: Screen.refresh).store(in: &tokens)
    center.observe(.isolated, target: self, action: Screen.reload).store(in: &tokens)
    center.observeOnce(.isolated) { _ in self.record("once") }
  }
}

@Suite("EventRAII handler isolation")
struct RAIIHandlerIsolationTests {
  @MainActor
  @Test("handlers written on the main actor run there for a post from a background thread")
  func mainActorForms() async {
    let center = NotificationCenter()
    let screen = Screen()
    screen.start(center)
    #expect(onOtherThread { center.post(name: .isolated, object: nil) })
    #expect(screen.log.isEmpty)
    await drainMainQueue()
    #expect(
      screen.log == [
        "token-held", "owner-bound", "target-action", "target-action, no argument", "once",
      ])
    #expect(screen.offMainActor == 0)
  }

  @Test("a handler written in nonisolated code runs synchronously on the posting thread")
  func nonisolated() {
    let center = NotificationCenter()
    let onMain = Recorder<Bool>()
    let token = center.observe(.isolated) { _ in onMain.record(MainActorDetection.isOnMainActor) }
    #expect(onOtherThread { center.post(name: .isolated, object: nil) })
    #expect(onMain.values == [false])
    withExtendedLifetime(token) {}
  }
}
