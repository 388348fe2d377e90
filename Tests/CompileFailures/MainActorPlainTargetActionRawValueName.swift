// expect-error: call to main actor-isolated instance method 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous nonisolated context
//
// The form whose method takes no argument, the name written `.init(rawValue: "…")`: it
// compiled, as `.init("…")` did.
import Events
import Foundation

@MainActor final class Badge {
  func reload() {}
}

func wire(_ center: NotificationCenter, to badge: Badge) -> Subscription {
  center.observe(.init(rawValue: "InboxDidChange"), target: badge, action: Badge.reload)
}
