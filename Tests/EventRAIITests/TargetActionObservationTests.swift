import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let action = Notification.Name("EventRAIITests.action")
}

/// A view-controller-like target with both action shapes.
private final class Screen: Sendable {
  private let names = Recorder<Notification.Name>()
  private let reloadCount = Counter()
  var refreshed: [Notification.Name] { names.values }
  var reloads: Int { reloadCount.count }
  let calls: Counter

  init(calls: Counter = Counter()) {
    self.calls = calls
  }

  func refresh(_ note: Notification) {
    calls.increment()
    names.record(note.name)
  }

  func reload() {
    calls.increment()
    reloadCount.increment()
  }
}

@Suite("Target-action observation")
struct TargetActionObservationTests {
  @Test("an action taking the notification receives it")
  func actionWithNotification() {
    let center = NotificationCenter()
    let screen = Screen()
    let token = center.observe(.action, target: screen, action: Screen.refresh)
    center.post(name: .action, object: nil)
    #expect(screen.refreshed == [.action])
    token.cancel()
  }

  @Test("an action taking nothing is called")
  func actionWithoutArguments() {
    let center = NotificationCenter()
    let screen = Screen()
    let token = center.observe(.action, target: screen, action: Screen.reload)
    center.post(name: .action, object: nil)
    center.post(name: .action, object: nil)
    #expect(screen.reloads == 2)
    token.cancel()
  }

  @Test("the target is held weakly, is never called after it is gone, and its token then ends")
  func targetIsWeak() {
    let center = NotificationCenter()
    let calls = Counter()
    var screen: Screen? = Screen(calls: calls)
    let weakScreen = Weak(screen)
    let token = screen.map { center.observe(.action, target: $0, action: Screen.refresh) }
    center.post(name: .action, object: nil)
    screen = nil
    #expect(weakScreen.object == nil)
    center.post(name: .action, object: nil)
    #expect(calls.count == 1)
    // The post that found the target gone purged its registration.
    #expect(token?.isCancelled == true)
  }

  @Test("releasing the token stops the action")
  func releasingTheTokenStops() {
    let center = NotificationCenter()
    let screen = Screen()
    var token: Subscription? = center.observe(.action, target: screen, action: Screen.reload)
    center.post(name: .action, object: nil)
    #expect(token != nil)
    token = nil
    center.post(name: .action, object: nil)
    #expect(screen.reloads == 1)
  }

  @Test("a queue delivery calls the action on that queue")
  func queueDelivery() {
    let center = NotificationCenter()
    let screen = Screen()
    let target = DispatchQueue(label: "action")
    let token = center.observe(
      .action, target: screen, action: Screen.reload, delivery: .queue(target))
    center.post(name: .action, object: nil)
    #expect(drain(target))
    #expect(screen.reloads == 1)
    token.cancel()
  }
}
