// expect-error: capture of 'tally' with non-Sendable type 'Tally' in a '@Sendable' closure
//
// 24: the throwing forms check what their closures capture as the others do: from nonisolated
// code, a throwing `subscribe` closure that captures a plain class does not compile.
import Events

struct Refused: Error {}

final class Tally {
  var count = 0
}

func count(_ event: Event<Int>) -> Subscription {
  let tally = Tally()
  return event.subscribe { value in
    if value < 0 { throw Refused() }
    tally.count += value
  }
}
