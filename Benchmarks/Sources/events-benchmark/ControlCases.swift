import Events
import MallocCounter

/// The additions of issue 24 that touch the post path: queued reentrancy and handlers that
/// throw. A post that nests nothing, and a throwing handler that does not throw, must stay
/// allocation-free, like every synchronous post.
func controlCases() -> [BenchmarkCase] {
  observerCounts.flatMap { n -> [BenchmarkCase] in
    [
      BenchmarkCase(
        "reentrancy.queued", observers: n,
        title: "EventTyped Event<Int>(reentrancy: .queued).post to subscribed closures, "
          + "nothing nested",
        comparisons: .delivery,
        body: .loop {
          let event = Event<Int>(reentrancy: .queued)
          let tokens = (0..<n).map { _ in event.subscribe { bench_consume($0) } }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            withExtendedLifetime(tokens) {}
          }
        }),
      BenchmarkCase(
        "throwing.subscribe", observers: n,
        title: "EventTyped Event<Int>.post to throwing closures that do not throw",
        comparisons: .delivery,
        body: .loop {
          let event = Event<Int>()
          let tokens = (0..<n).map { _ in
            event.subscribe { value in
              if value < 0 { throw BenchRefusal() }
              bench_consume(value)
            }
          }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            withExtendedLifetime(tokens) {}
          }
        }),
    ]
  }
}

private struct BenchRefusal: Error {}
