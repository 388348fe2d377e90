// expect-error: capture of 'tally' with non-Sendable type 'Tally' in a '@Sendable' closure
//
// A Sendable owner, but the handler of `observe(_:owner:_:)` captures a plain class.
import Events
import Foundation

final class Tally {
  var count = 0
}

final class Service: Sendable {}

func count(_ center: NotificationCenter, service: Service) {
  let tally = Tally()
  center.observe(Notification.Name("Tick"), owner: service) { _, _ in tally.count += 1 }
}
