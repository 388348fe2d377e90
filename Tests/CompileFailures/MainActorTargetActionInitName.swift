// expect-error: call to main actor-isolated instance method 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous nonisolated context
//
// The name written `.init("…")`: Swift used to rank the nonisolated form first for this
// spelling alone, and the `@MainActor` method compiled, to run on the posting thread.
import Events
import Foundation

@MainActor final class Screen {
  func refresh(_ note: Notification) {}
}

func wire(_ center: NotificationCenter, to screen: Screen) -> Subscription {
  center.observe(.init("ModelDidChange"), target: screen, action: Screen.refresh)
}
