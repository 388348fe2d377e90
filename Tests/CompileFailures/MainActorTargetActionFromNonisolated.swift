// expect-error: call to main actor-isolated instance method 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous nonisolated context
//
// 20.1: a `@MainActor` screen's target-action registered by a nonisolated coordinator.
import Events
import Foundation

@MainActor final class Screen {
  func refresh(_ note: Notification) {}
}

func wire(_ center: NotificationCenter, to screen: Screen) -> Subscription {
  center.observe(Notification.Name("ModelDidChange"), target: screen, action: Screen.refresh)
}
