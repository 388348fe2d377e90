// expect-error: is unavailable: target-action needs a Sendable target
//
// Target-action naming the method through Self, on a Sendable class: Swift used to say
// "requires that 'Indexer' conform to 'Actor'".
import Events
import Foundation

final class Indexer: Sendable {
  func reindex(_ note: Notification) {}

  func start(_ center: NotificationCenter) -> Subscription {
    center.observe(Notification.Name("ModelDidChange"), target: self, action: Self.reindex)
  }
}
