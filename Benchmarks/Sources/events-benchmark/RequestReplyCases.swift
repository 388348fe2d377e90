import Dispatch
import Events
import MallocCounter
import Synchronization

/// The request counts of the request/reply cases.
let requestCounts = [1000, 2000, 4000, 8000, 10000]

/// `Event.next(where:)` runs every waiter's predicate on every post, so its sample grows as
/// N²: it is measured at the smaller counts only, for contrast.
let eventRequestCounts = [1000, 2000, 4000]

/// One way of waiting for the reply to a request by its id, and of answering it.
protocol ReplyService: Sendable {
  /// Registers the wait for `id`'s reply, calls `send`, and returns the reply.
  func request(_ id: Int, send: () -> Void) async throws -> Int
  /// Delivers the reply to `id`.
  func answer(_ id: Int)
}

/// The baseline, what a user writes by hand: a dictionary of continuations keyed by request
/// id, under a lock; the answer removes its continuation and resumes it. No timeout.
final class ContinuationTable: ReplyService {
  private let waiting = Mutex<[Int: CheckedContinuation<Int, Never>]>([:])

  func request(_ id: Int, send: () -> Void) async -> Int {
    await withCheckedContinuation { continuation in
      waiting.withLock { $0[id] = continuation }
      send()
    }
  }

  func answer(_ id: Int) {
    let continuation = waiting.withLock { $0.removeValue(forKey: id) }
    continuation?.resume(returning: id)
  }
}

/// `KeyedEvent`: each request waits on its own key, with a timeout, as a server would.
final class KeyedReplies: ReplyService {
  private let replies = KeyedEvent<Int, Int>()
  private let timeout: Duration?

  init(timeout: Duration?) {
    self.timeout = timeout
  }

  func request(_ id: Int, send: () -> Void) async throws -> Int {
    try await replies[id].next(timeout: timeout) { send() }
  }

  func answer(_ id: Int) {
    replies.post(id, to: id)
  }
}

/// One `Event` and a predicate per request, what issue 32 replaces.
final class FilteredReplies: ReplyService {
  private let replies = Event<Int>()

  func request(_ id: Int, send: () -> Void) async throws -> Int {
    try await replies.next(where: { $0 == id }, timeout: .seconds(30)) { send() }
  }

  func answer(_ id: Int) {
    replies.post(id)
  }
}

/// The requests sent so far, and the responder waiting for all of them.
private final class Outbox: Sendable {
  private struct State {
    var sent: [Int] = []
    var responder: CheckedContinuation<[Int], Never>?
  }

  private let expected: Int
  private let state = Mutex(State())

  init(expecting expected: Int) {
    self.expected = expected
    state.withLock { $0.sent.reserveCapacity(expected) }
  }

  /// A request goes out; the last one wakes the responder.
  func send(_ id: Int) {
    let ready = state.withLock { state -> (CheckedContinuation<[Int], Never>, [Int])? in
      state.sent.append(id)
      guard state.sent.count == expected, let responder = state.responder else { return nil }
      state.responder = nil
      return (responder, state.sent)
    }
    if let (responder, sent) = ready { responder.resume(returning: sent) }
  }

  /// Every request's id, in the order sent, once all of them have been sent.
  func allSent() async -> [Int] {
    await withCheckedContinuation { continuation in
      let sent = state.withLock { state -> [Int]? in
        guard state.sent.count < expected else { return state.sent }
        state.responder = continuation
        return nil
      }
      if let sent { continuation.resume(returning: sent) }
    }
  }
}

/// `count` requests in flight at once: a task group of `count` tasks, each registering its
/// wait and then sending its request, and a responder that, once every request has been sent,
/// answers them by id in the order they were sent. The same for every service.
private func exchange(_ service: any ReplyService, count: Int) async {
  let outbox = Outbox(expecting: count)
  await withTaskGroup(of: Void.self) { group in
    group.addTask {
      for id in await outbox.allSent() { service.answer(id) }
    }
    for id in 0..<count {
      group.addTask {
        do {
          let reply = try await service.request(id) { outbox.send(id) }
          precondition(reply == id, "request \(id) got the reply to \(reply)")
          bench_consume(reply)
        } catch {
          fatalError("request \(id) failed: \(error)")
        }
      }
    }
  }
}

/// One sample: a fresh service, `count` requests, timed from the first task's creation to the
/// last reply's return.
private func requestReplySample(count: Int, _ make: () -> any ReplyService) -> FixedSample {
  let service = make()
  let done = DispatchSemaphore(value: 0)
  let start = now()
  Task {
    await exchange(service, count: count)
    done.signal()
  }
  done.wait()
  let elapsed = now() - start
  return FixedSample(value: Double(elapsed) / 1e6, operations: count)
}

/// Issue 32's request/reply cases: N requests in flight at once, each answered by id, against
/// a dictionary of continuations in the same run.
func requestReplyCases() -> [BenchmarkCase] {
  let baseline = Comparisons(array: "reply.baseline")
  let services: [(String, String, [Int], () -> any ReplyService)] = [
    (
      "reply.baseline",
      "Baseline: dictionary of CheckedContinuations by request id under a Mutex, no timeout",
      requestCounts, { ContinuationTable() }
    ),
    (
      "reply.keyed",
      "KeyedEvent<Int, Int>: replies[id].next(timeout: .seconds(30)) { send(id) }, "
        + "post(id, to: id)",
      requestCounts, { KeyedReplies(timeout: .seconds(30)) }
    ),
    (
      "reply.keyed.untimed",
      "KeyedEvent<Int, Int>: replies[id].next { send(id) } (no timeout), post(id, to: id)",
      requestCounts, { KeyedReplies(timeout: nil) }
    ),
    (
      "reply.event",
      "Event<Int>: next(where: { $0 == id }, timeout: .seconds(30)) { send(id) }, post(id)",
      eventRequestCounts, { FilteredReplies() }
    ),
  ]
  return services.flatMap { family, title, counts, make in
    counts.map { count in
      BenchmarkCase(
        family, observers: count, perObserver: false,
        title: "\(title): N requests in flight, all answered, wall ms for all",
        allocations: .process,
        comparisons: family == "reply.baseline" ? .none : baseline,
        body: .fixed(unit: "ms") { requestReplySample(count: count, make) })
    }
  }
}

/// The number of other live keys of `keyed.post`.
let otherKeys = 10_000

/// A post to one key of a keyed event with 10,000 other live keys, against `event.subscribe`
/// (an `Event` with the same observers) in `×array`.
///
/// Every key has the N observers, and successive posts go to successive keys, so the figure is
/// the lookup's average over the table: one key's probe length depends on the process's hash
/// seed, and would make the figure move from run to run.
func keyedPostCases() -> [BenchmarkCase] {
  [1, 10].map { n in
    BenchmarkCase(
      "keyed.post", observers: n,
      title: "KeyedEvent<Int, Int>.post(_:to:) to one key's N subscribe closures, "
        + "\(otherKeys) other keys live (each post to the next key)",
      comparisons: Comparisons(array: "event.subscribe"),
      body: .loop {
        let keyed = KeyedEvent<Int, Int>()
        let keys = otherKeys + 1
        let tokens = (0..<keys).flatMap { key in
          (0..<n).map { _ in keyed[key].subscribe { bench_consume($0) } }
        }
        var key = 0
        return Loop { iterations in
          for value in 0..<iterations {
            keyed.post(value, to: key)
            key = key == keys - 1 ? 0 : key + 1
          }
          withExtendedLifetime(tokens) {}
        }
      })
  }
}
