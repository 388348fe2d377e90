import Events
import Foundation

extension TypedDemo {
  /// Four requests in flight at once, each waiting on its own key of one `KeyedEvent`: the
  /// server answers three of them out of order and the fourth only after its wait timed out.
  /// Every wait ends with its key, and `all` logs every reply, the late one included.
  @MainActor
  static func keyedReplies(_ report: DemoReport) async {
    let server = ReplyServer(expecting: 4, answering: [3, 1, 2])
    let logged = Arrivals<Int>()
    let log = logEveryReply(of: server.replies, into: logged)
    let outcomes = await withTaskGroup(of: (Int, String).self) { group in
      for id in 1...4 {
        group.addTask { await call(id, on: server) }
      }
      var outcomes: [Int: String] = [:]
      for await (id, outcome) in group { outcomes[id] = outcome }
      return outcomes
    }
    report.check(
      server.keysInFlight.all == [4],
      "with 4 requests in flight the keyed event had 4 keys, one waiter each")
    report.check(
      outcomes[1] == "answer 1" && outcomes[2] == "answer 2" && outcomes[3] == "answer 3"
        && Array(logged.all.prefix(3)) == [3, 1, 2],
      "each request got its own reply, though the server answered 3, 1, 2")
    report.check(
      server.reached.all == [1, 1, 1],
      "each post reached 1 registration, its key's waiter, while the other requests waited")
    report.check(outcomes[4] == "timed out", "request 4, unanswered, timed out after 200 ms")
    let keysLeft = server.replies.keyCount
    DemoLog.event("replies.keyCount is \(keysLeft)")
    report.check(keysLeft == 0, "every wait ended with its key: keyCount is back to 0")
    let late = await server.answerLate(4)
    report.check(
      late == 0 && server.replies.keyCount == 0 && logged.all == [3, 1, 2, 4],
      "the late reply to 4 reached nobody and made no key; all still logged it")
    log.cancel()
  }

  /// Sends request `id` and waits for its reply: the wait is registered on the key before the
  /// request goes out.
  nonisolated private static func call(_ id: Int, on server: ReplyServer) async -> (Int, String) {
    do {
      let reply = try await server.replies[id].next(timeout: .milliseconds(200)) {
        DemoLog.event("request \(id) waits on replies[\(id)], then is sent")
        await server.send(id)
      }
      DemoLog.event("request \(id) got \"\(reply.body)\"")
      return (id, reply.body)
    } catch is EventTimeout {
      DemoLog.event("request \(id) timed out after 200 ms; its key is gone")
      return (id, "timed out")
    } catch {
      return (id, "\(error)")
    }
  }

  /// Registered from nonisolated code, so it logs on the thread that posts.
  nonisolated private static func logEveryReply(
    of replies: KeyedEvent<Int, ServerReply>, into logged: Arrivals<Int>
  ) -> Subscription {
    replies.all.subscribe { id, reply in
      DemoLog.event("replies.all logs reply \(id), \"\(reply.body)\"")
      logged.record(id)
    }
  }
}

/// What the server answers to one request.
private struct ServerReply: Sendable {
  let id: Int
  let body: String
}

/// A server on a queue of its own. It answers once every request it expects has arrived, in an
/// order of its own, so replies come back out of order; the others it answers only when told.
///
/// `@unchecked Sendable`: `received` is read and written only on `queue`.
private final class ReplyServer: @unchecked Sendable {
  let replies = KeyedEvent<Int, ServerReply>()
  /// The keys the replies had when every request had arrived.
  let keysInFlight = Arrivals<Int>()
  /// What each answer's post returned.
  let reached = Arrivals<Int>()
  private let queue = ExecutionContext.queue("typed.server")
  private let expected: Int
  private let order: [Int]
  private var received = 0

  init(expecting expected: Int, answering order: [Int]) {
    self.expected = expected
    self.order = order
  }

  /// Hands request `id` to the server's queue, and returns once it has arrived there.
  func send(_ id: Int) async {
    await withCheckedContinuation { continuation in
      queue.async { [self] in
        DemoLog.event("server receives request \(id)")
        received += 1
        continuation.resume()
        if received == expected { answer() }
      }
    }
  }

  private func answer() {
    keysInFlight.record(replies.keyCount)
    DemoLog.event("all \(expected) requests in flight: replies.keyCount is \(replies.keyCount)")
    for id in order {
      let count = replies.post(ServerReply(id: id, body: "answer \(id)"), to: id)
      DemoLog.event("server posts the reply to \(id): it reached \(count)")
      reached.record(count)
    }
  }

  /// Answers request `id` now, from the server's queue.
  ///
  /// - Returns: What the post returned: the number of registrations it reached.
  func answerLate(_ id: Int) async -> Int {
    await withCheckedContinuation { continuation in
      queue.async { [self] in
        let count = replies.post(ServerReply(id: id, body: "answer \(id)"), to: id)
        DemoLog.event("server posts the late reply to \(id): it reached \(count)")
        continuation.resume(returning: count)
      }
    }
  }
}
