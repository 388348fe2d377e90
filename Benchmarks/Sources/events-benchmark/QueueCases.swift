import Dispatch
import Events
import MallocCounter

/// `.queue` delivery: each post enqueues one invocation per observer on a serial queue; the
/// loop waits until the queue has run them all, so the figure is the throughput of post and
/// delivery together.
func queueCases() -> [BenchmarkCase] {
  observerCounts.flatMap { n -> [BenchmarkCase] in
    [
      BenchmarkCase(
        "queue.dispatch", observers: n,
        title: "Baseline: DispatchQueue.async of each closure of an array, per post",
        allocations: .process,
        body: .loop {
          let queue = DispatchQueue(label: "events.benchmark.baseline")
          let handlers = [@Sendable (Int) -> Void](repeating: handler, count: n)
          return Loop { iterations in
            for value in 0..<iterations {
              for handler in handlers { queue.async { handler(value) } }
            }
            queue.sync {}
          }
        }),
      BenchmarkCase(
        "queue.event", observers: n,
        title: "EventTyped Event(delivery: .queue(q)).post to subscribed closures, until run",
        allocations: .process, comparisons: Comparisons(array: "queue.dispatch"),
        body: .loop {
          let queue = DispatchQueue(label: "events.benchmark.event")
          let event = Event<Int>(delivery: .queue(queue))
          let tokens = (0..<n).map { _ in event.subscribe { bench_consume($0) } }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            queue.sync {}
            withExtendedLifetime(tokens) {}
          }
        }),
      BenchmarkCase(
        "queue.bounded", observers: n,
        title:
          "Event(delivery: .queue(q), backlog: .dropOldest(64)).post, consumer keeping up, until run",
        allocations: .process, comparisons: Comparisons(array: "queue.dispatch"),
        body: .loop {
          let queue = DispatchQueue(label: "events.benchmark.bounded")
          let event = Event<Int>(delivery: .queue(queue), backlog: .dropOldest(64))
          let tokens = (0..<n).map { _ in event.subscribe { bench_consume($0) } }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            queue.sync {}
            withExtendedLifetime(tokens) {}
          }
        }),
      // The flood: the consumer's queue is suspended, so after the first 64 posts each one
      // drops the oldest call of every registration (a full bounded backlog, the memory that
      // stays flat); the queue then runs what is left.
      BenchmarkCase(
        "queue.full", observers: n,
        title: "Event(delivery: .queue(q), backlog: .dropOldest(64)).post into full backlogs",
        allocations: .process, comparisons: Comparisons(array: "queue.dispatch"),
        body: .loop {
          let queue = DispatchQueue(label: "events.benchmark.full")
          let event = Event<Int>(delivery: .queue(queue), backlog: .dropOldest(64))
          let tokens = (0..<n).map { _ in event.subscribe { bench_consume($0) } }
          return Loop { iterations in
            queue.suspend()
            for value in 0..<iterations { event.post(value) }
            queue.resume()
            queue.sync {}
            withExtendedLifetime(tokens) {}
          }
        }),
      BenchmarkCase(
        "queue.broadcaster", observers: n,
        title: "EventBroadcast notify to observers registered with delivery: .queue(q), until run",
        allocations: .process, comparisons: Comparisons(array: "queue.dispatch"),
        body: .loop {
          let queue = DispatchQueue(label: "events.benchmark.broadcaster")
          let broadcaster = Broadcaster()
          let targets = makeTargets(n)
          for target in targets {
            broadcaster.register(
              (any BenchObserver).self, observer: target, delivery: .queue(queue))
          }
          return Loop { iterations in
            for value in 0..<iterations {
              broadcaster.notify((any BenchObserver).self) { $0.receive(value) }
            }
            queue.sync {}
            withExtendedLifetime(targets) {}
          }
        }),
    ]
  }
}
