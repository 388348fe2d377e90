// expect-error: capture of 'tally' with non-Sendable type 'Tally' in a '@Sendable' closure
//
// 20.1: a Sendable observer, but the `handler:` closure captures a plain class.
import Events

final class Tally {
  var count = 0
}

final class Service: Sendable {}

func count(_ event: Event<Int>, service: Service) {
  let tally = Tally()
  event.register(service) { _, _ in tally.count += 1 }
}
