// expect-error: is unavailable: target-action needs a Sendable target
//
// Target-action naming the method through Self, on a class that is not Sendable: Swift used to
// say "requires that 'Refresher' conform to 'Actor'".
import Events
import Foundation

final class Refresher {
  var token: Subscription?

  func refresh(_ note: Notification) {}

  func start(_ center: NotificationCenter) {
    token = center.observe(
      Notification.Name("ModelDidChange"), target: self, action: Self.refresh)
  }
}
