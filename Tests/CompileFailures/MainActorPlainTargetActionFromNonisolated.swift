// expect-error: call to main actor-isolated instance method 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous nonisolated context
//
// The target-action form whose method takes no argument, from nonisolated code.
import Events
import Foundation

@MainActor final class Badge {
  func reload() {}
}

func wire(_ center: NotificationCenter, to badge: Badge) -> Subscription {
  center.observe(Notification.Name("InboxDidChange"), target: badge, action: Badge.reload)
}
