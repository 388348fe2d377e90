// expect-error: is unavailable: an actor's unbound method cannot be called off the actor
//
// An actor's unbound method as a target-action.
import Events
import Foundation

actor Cache {
  func purge(_ note: Notification) {}

  func start(_ center: NotificationCenter) -> Subscription {
    center.observe(Notification.Name("MemoryWarning"), target: self, action: Cache.purge)
  }
}
