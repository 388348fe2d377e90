// default-isolation: MainActor
// expect-error: call to main actor-isolated instance method 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous nonisolated context
//
// In an app target (default MainActor isolation), a `nonisolated` helper that registers a
// screen's method as a target-action, the name written `.init("…")`. The same call made with
// the target's default isolation compiles.
import Events
import Foundation

final class Screen {
  func refresh(_ note: Notification) {}
}

func wireOnMainActor(_ center: NotificationCenter, to screen: Screen) -> Subscription {
  center.observe(.init("ModelDidChange"), target: screen, action: Screen.refresh)
}

nonisolated func wire(_ center: NotificationCenter, to screen: Screen) -> Subscription {
  center.observe(.init("ModelDidChange"), target: screen, action: Screen.refresh)
}
