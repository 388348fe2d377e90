import Dispatch
import Events
import Foundation
import MallocCounter

/// The additions of issue 14: replay, once-registrations and async handlers.
func additionsCases() -> [BenchmarkCase] {
  replayCases() + onceCases() + asyncHandlerCases()
}

/// A post to an event that keeps its latest payload: the same delivery as `event.subscribe`, plus
/// recording the payload in the replay ring. It must stay allocation-free, like every
/// synchronous post.
private func replayCases() -> [BenchmarkCase] {
  observerCounts.map { n in
    BenchmarkCase(
      "replay.latest", observers: n,
      title: "EventTyped Event<Int>(replay: .latest).post to subscribed closures",
      comparisons: .delivery,
      body: .loop {
        let event = Event<Int>(replay: .latest)
        let tokens = (0..<n).map { _ in event.subscribe { bench_consume($0) } }
        return Loop { iterations in
          for value in 0..<iterations { event.post(value) }
          withExtendedLifetime(tokens) {}
        }
      })
  }
}

/// One registration that runs for the next post only, and that post. The baseline is the
/// helper people write over Foundation: an observer that removes itself in its own block.
private func onceCases() -> [BenchmarkCase] {
  let againstFoundation = Comparisons(foundation: "once.nc")
  return [
    BenchmarkCase(
      "once.nc", observers: nil, perObserver: false,
      title: "Foundation addObserver + post, the block calls removeObserver on itself",
      body: .loop {
        let center = NotificationCenter()
        return Loop { iterations in
          for _ in 0..<iterations {
            let token = OnceToken()
            token.observer = center.addObserver(forName: benchName, object: nil, queue: nil) {
              _ in
              if let observer = token.observer { center.removeObserver(observer) }
              bench_consume(1)
            }
            center.post(name: benchName, object: nil)
          }
        }
      }),
    BenchmarkCase(
      "once.subscribe", observers: nil, perObserver: false,
      title: "EventTyped Event.subscribeOnce + post",
      comparisons: againstFoundation,
      body: .loop {
        let event = Event<Int>()
        return Loop { iterations in
          for value in 0..<iterations {
            event.subscribeOnce { bench_consume($0) }
            event.post(value)
          }
        }
      }),
    BenchmarkCase(
      "once.observe", observers: nil, perObserver: false,
      title: "EventRAII NotificationCenter.observeOnce + post",
      comparisons: againstFoundation,
      body: .loop {
        let center = NotificationCenter()
        return Loop { iterations in
          for _ in 0..<iterations {
            center.observeOnce(benchName) { _ in bench_consume(1) }
            center.post(name: benchName, object: nil)
          }
        }
      }),
  ]
}

/// The token a self-removing Foundation observer reads in its own block.
///
/// `@unchecked Sendable`: written once, before the post that reads it, on the same thread.
private final class OnceToken: @unchecked Sendable {
  var observer: (any NSObjectProtocol)?
}

/// The throughput of one async handler: the loop posts its iterations, then a last value the
/// handler answers by signalling, and waits for it, so the figure is per post, handled. The
/// baseline is an `AsyncStream` and a task that consumes it, doing the same.
private func asyncHandlerCases() -> [BenchmarkCase] {
  let done = -1
  return [
    BenchmarkCase(
      "async.stream", observers: 1, perObserver: false,
      title: "Baseline: AsyncStream.yield to one consuming task, until consumed, per value",
      allocations: .process,
      body: .loop {
        let handled = DispatchSemaphore(value: 0)
        let consumer = StreamConsumer(signalling: handled, on: done)
        return Loop { iterations in
          for value in 0..<iterations { consumer.continuation.yield(value) }
          consumer.continuation.yield(done)
          handled.wait()
        }
      }),
    BenchmarkCase(
      "async.subscribe", observers: 1, perObserver: false,
      title: "EventTyped Event.subscribe with an async closure: post, until handled, per post",
      allocations: .process, comparisons: Comparisons(array: "async.stream"),
      body: .loop {
        let handled = DispatchSemaphore(value: 0)
        let event = Event<Int>()
        let token = event.subscribe { value async in
          bench_consume(value)
          if value == done { handled.signal() }
        }
        return Loop { iterations in
          for value in 0..<iterations { event.post(value) }
          event.post(done)
          handled.wait()
          withExtendedLifetime(token) {}
        }
      }),
  ]
}

/// An `AsyncStream` and the task that consumes it; releasing it finishes the stream, which ends
/// the task.
private final class StreamConsumer: Sendable {
  let continuation: AsyncStream<Int>.Continuation

  init(signalling handled: DispatchSemaphore, on done: Int) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    self.continuation = continuation
    Task {
      for await value in stream {
        bench_consume(value)
        if value == done { handled.signal() }
      }
    }
  }

  deinit {
    continuation.finish()
  }
}
