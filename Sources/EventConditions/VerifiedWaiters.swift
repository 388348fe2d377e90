/// The tasks suspended in ``NotificationReceiver/verified(after:isolation:)-86agy``, as a plain value.
///
/// A waiter moves through: registered id (`pending`), then either a continuation stored
/// (`waiting`), or an early outcome that the continuation takes as soon as it arrives
/// (`resumeOnArrival`: the task was cancelled, or a completion happened in between). The id is
/// registered before the caller's work runs and the continuation stored after it, so a
/// completion in between is never missed. Each method hands back the continuations to resume,
/// so the owner resumes them after releasing its lock, and every continuation is resumed
/// exactly once.
struct VerifiedWaiters<Continuation: Sendable>: Sendable {
  private enum Waiter: Sendable {
    case pending
    case waiting(Continuation)
    case resumeOnArrival
  }

  private var waiters: [UInt64: Waiter] = [:]
  private var nextID: UInt64 = 0

  /// How many waiters are tracked, in any state.
  var count: Int { waiters.count }

  /// How many waiters have stored their continuation and wait for a completion.
  var suspendedCount: Int {
    waiters.values.count(where: { if case .waiting = $0 { true } else { false } })
  }

  /// Reserves an id for a waiter whose continuation is about to be stored.
  mutating func register() -> UInt64 {
    defer { nextID += 1 }
    waiters[nextID] = .pending
    return nextID
  }

  /// Stores the continuation of waiter `id`, unless it is due already.
  ///
  /// - Parameters:
  ///   - continuation: The suspended task's continuation.
  ///   - id: What `register()` returned.
  ///   - isVerified: Whether the set is verified now. A waiter then does not wait: a latched
  ///     set completes again only after a reset, which may never come.
  /// - Returns: The continuation itself when it is to be resumed at once (the task was
  ///   cancelled, a completion happened since `register()`, or the set is verified now); `nil`
  ///   when it now waits.
  mutating func store(
    _ continuation: Continuation, for id: UInt64, isVerified: Bool
  ) -> Continuation? {
    guard case .pending = waiters[id], !isVerified else {
      waiters[id] = nil
      return continuation
    }
    waiters[id] = .waiting(continuation)
    return nil
  }

  /// Ends waiter `id` because its task was cancelled.
  ///
  /// - Returns: Its continuation, to resume, if it was waiting.
  mutating func cancel(_ id: UInt64) -> Continuation? {
    switch waiters[id] {
    case .waiting(let continuation):
      waiters[id] = nil
      return continuation
    case .pending:
      waiters[id] = .resumeOnArrival
      return nil
    case .resumeOnArrival, nil:
      return nil
    }
  }

  /// A completion: every waiter is due.
  ///
  /// - Returns: The continuations to resume.
  mutating func complete() -> [Continuation] {
    var due: [Continuation] = []
    for (id, waiter) in waiters {
      switch waiter {
      case .waiting(let continuation):
        due.append(continuation)
        waiters[id] = nil
      case .pending:
        waiters[id] = .resumeOnArrival
      case .resumeOnArrival:
        break
      }
    }
    return due
  }
}
