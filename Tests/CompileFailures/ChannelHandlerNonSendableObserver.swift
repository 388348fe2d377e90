// expect-error: type 'Tally' does not conform to the 'Sendable' protocol
//
// 20.1 per key: a plain class handed to a channel's `register(_:handler:)` from nonisolated code
// would be mutated on every posting thread at once, as on an `Event`.
import Events

final class Tally {
  var count = 0
}

func count(_ replies: KeyedEvent<Int, String>, key: Int, into tally: Tally) {
  replies[key].register(tally) { tally, _ in tally.count += 1 }
}
