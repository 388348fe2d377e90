import Foundation
import MallocCounter

let benchName = Notification.Name("events.benchmark")

/// Foundation's `NotificationCenter` with block observers, on a center of its own.
func foundationCases() -> [BenchmarkCase] {
  observerCounts.flatMap { n -> [BenchmarkCase] in
    [
      BenchmarkCase(
        "nc.block", observers: n,
        title: "Foundation NotificationCenter block observers, post(name:object:)",
        body: .loop {
          let center = NotificationCenter()
          let tokens = (0..<n).map { _ in
            center.addObserver(forName: benchName, object: nil, queue: nil) { _ in
              bench_consume(1)
            }
          }
          return Loop { iterations in
            for _ in 0..<iterations { center.post(name: benchName, object: nil) }
            withExtendedLifetime(tokens) {}
          }
        }),
      BenchmarkCase(
        "nc.object", observers: n,
        title: "Foundation NotificationCenter block observers filtered by object:",
        body: .loop {
          let center = NotificationCenter()
          let sender = NSObject()
          let tokens = (0..<n).map { _ in
            center.addObserver(forName: benchName, object: sender, queue: nil) { _ in
              bench_consume(1)
            }
          }
          return Loop { iterations in
            for _ in 0..<iterations { center.post(name: benchName, object: sender) }
            withExtendedLifetime(tokens) {}
          }
        }),
    ]
  }
}

/// Foundation's `object:` filter with 1,000 observers, each of a different sender; one post from
/// one of them.
func foundationSenderCases() -> [BenchmarkCase] {
  let senders = 1000
  return [
    BenchmarkCase(
      "nc.others", observers: senders, perObserver: false,
      title: "Foundation: 1,000 block observers each filtered by a different sender, one post",
      body: .loop {
        let center = NotificationCenter()
        let objects = (0..<senders).map { _ in NSObject() }
        let tokens = objects.map { sender in
          center.addObserver(forName: benchName, object: sender, queue: nil) { _ in
            bench_consume(1)
          }
        }
        let sender = objects[senders / 2]
        return Loop { iterations in
          for _ in 0..<iterations { center.post(name: benchName, object: sender) }
          withExtendedLifetime((tokens, objects)) {}
        }
      })
  ]
}
