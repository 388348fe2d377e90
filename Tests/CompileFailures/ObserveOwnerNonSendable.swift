// expect-error: type 'Tally' does not conform to the 'Sendable' protocol
//
// 20.1: a plain class as the owner of `observe(_:owner:_:)` from nonisolated code.
import Events
import Foundation

final class Tally {
  var count = 0
}

func count(_ center: NotificationCenter, into tally: Tally) {
  center.observe(Notification.Name("Tick"), owner: tally) { tally, _ in tally.count += 1 }
}
