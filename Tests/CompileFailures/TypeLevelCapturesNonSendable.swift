// expect-error: capture of 'tally' with non-Sendable type 'Tally' in a '@Sendable' closure
//
// A type-level registration's closure that captures a plain class.
import Events

final class Tally {
  var count = 0
}

enum Metrics {}

func count(_ event: Event<Int>) {
  let tally = Tally()
  event.register(Metrics.self) { _ in tally.count += 1 }
}
