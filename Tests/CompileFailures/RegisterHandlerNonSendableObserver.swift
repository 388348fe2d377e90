// expect-error: type 'Tally' does not conform to the 'Sendable' protocol
//
// 20.1: a plain class handed to `register(_:handler:)` from nonisolated code would be mutated
// on every posting thread at once.
import Events

final class Tally {
  var count = 0
}

func count(_ event: Event<Int>, into tally: Tally) {
  event.register(tally) { tally, _ in tally.count += 1 }
}
