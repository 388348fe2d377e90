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

/// The handler closure of every closure case and baseline.
let handler: @Sendable (Int) -> Void = { bench_consume($0) }

func makeTargets(_ count: Int) -> [Target] {
  (0..<count).map { _ in Target() }
}
