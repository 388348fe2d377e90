// expect-error: call to main actor-isolated instance method 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous actor-isolated context
//
// `.init("…")` from another actor, where the method would have run on that actor.
import Events
import Foundation

@MainActor final class Screen {
  func refresh(_ note: Notification) {}
}

actor Coordinator {
  func wire(_ center: NotificationCenter, to screen: Screen) -> Subscription {
    center.observe(.init("ModelDidChange"), target: screen, action: Screen.refresh)
  }
}
