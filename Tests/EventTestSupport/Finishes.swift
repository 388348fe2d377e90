import EventCore

/// Runs `operation` in a task of its own and waits, bounded, for it to finish, so a test that
/// awaits something a regression could make never come fails after a timeout instead of hanging.
///
/// On a timeout this returns without waiting for the task, and leaves it running: a wait that
/// never ends cannot be waited for.
///
/// - Parameters:
///   - seconds: How long to wait.
///   - operation: The work to await.
/// - Returns: `false` if `seconds` passed first.
public func finishes(
  within seconds: Double = 10, _ operation: @escaping @Sendable () async -> Void
) async -> Bool {
  // The operation and the timer race for the continuation; the first one to take it resumes it.
  let pending = Lock<CheckedContinuation<Bool, Never>?>(nil)
  let settle: @Sendable (Bool) -> Void = { finished in
    pending.withLock { $0.take() }?.resume(returning: finished)
  }
  return await withCheckedContinuation { continuation in
    pending.withLock { $0 = continuation }
    let timer = Task {
      // A cancelled sleep means the operation finished first.
      guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
      settle(false)
    }
    Task {
      await operation()
      timer.cancel()
      settle(true)
    }
  }
}
