// expect-error: call to main actor-isolated instance method 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous nonisolated context
//
// `.init("…")` with every other argument written out, themselves implicit members.
import Events
import Foundation

@MainActor final class Screen {
  func refresh(_ note: Notification) {}
}

func wire(_ center: NotificationCenter, to screen: Screen, sender: AnyObject) -> Subscription {
  center.observe(
    .init("ModelDidChange"), object: .some(sender), target: screen, action: Screen.refresh,
    delivery: .queue(.main), backlog: .unbounded)
}
