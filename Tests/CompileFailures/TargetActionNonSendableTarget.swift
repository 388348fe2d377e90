// expect-error: type 'Refresher' does not conform to the 'Sendable' protocol
//
// Target-action from nonisolated code with a target that is not Sendable, its method named
// through the class: the error names the mistake (the catch-all target-action overload, being
// unavailable, never wins over this one).
import Events
import Foundation

final class Refresher {
  var token: Subscription?

  func refresh(_ note: Notification) {}

  func start(_ center: NotificationCenter) {
    token = center.observe(
      Notification.Name("ModelDidChange"), target: self, action: Refresher.refresh)
  }
}
