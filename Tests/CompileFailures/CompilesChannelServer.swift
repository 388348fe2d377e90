// expect: compiles
//
// Server-shaped, issue 32: an actor holds requests in flight, each awaiting its own reply
// through its key's channel; the request goes out with `try await` inside `next`'s work, after
// the wait is registered, and the connection posts each reply to its request's key.
import Events

struct RequestID: Hashable, Sendable {
  let raw: UInt64
}

struct Request: Sendable {
  let id: RequestID
  let body: String
}

struct Reply: Sendable {
  let id: RequestID
  let body: String
}

final class Connection: Sendable {
  let replies = KeyedEvent<RequestID, Reply>()

  func send(_ request: Request) async throws {}

  /// The reader's side: each reply reaches the waiter of its own request only.
  func received(_ reply: Reply) {
    replies.post(reply, to: reply.id)
  }
}

actor Server {
  let connection = Connection()
  private var nextID: UInt64 = 0
  private(set) var answered = 0

  func call(_ body: String) async throws -> Reply {
    nextID += 1
    let request = Request(id: RequestID(raw: nextID), body: body)
    let replies = connection.replies
    let reply = try await replies[request.id].next(timeout: .seconds(30)) {
      try await connection.send(request)
    }
    answered += 1  // back on the actor: `next` runs its work, and returns, on the caller's actor
    return reply
  }

  func callAll(_ bodies: [String]) async throws -> [Reply] {
    try await withThrowingTaskGroup(of: Reply.self) { group in
      for body in bodies { group.addTask { try await self.call(body) } }
      var replies: [Reply] = []
      for try await reply in group { replies.append(reply) }
      return replies
    }
  }
}
