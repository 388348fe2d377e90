import MallocCounter

/// The protocol `Broadcaster` cases notify through.
protocol BenchObserver: AnyObject {
  func receive(_ value: Int)
}

/// The observer object of every weak-observer case and baseline. Its method does the same
/// opaque call as every closure handler, so all cases do the same work per observer.
final class Target: BenchObserver, Sendable {
  func receive(_ value: Int) {
    bench_consume(value)
  }
}

/// The handler closure of the baselines and of Foundation's cases.
///
/// Events' closure registrations are given the same body as a closure literal,
/// `{ bench_consume($0) }`, as user code writes it: their parameters are `@isolated(any)`
/// (the handler runs on the actor it was written on), and converting an existing function value
/// to that type puts two reabstraction thunks, each a call and an allocation at registration,
/// in front of every call; a literal is compiled to the parameter's type directly.
let handler: @Sendable (Int) -> Void = { bench_consume($0) }

func makeTargets(_ count: Int) -> [Target] {
  (0..<count).map { _ in Target() }
}
