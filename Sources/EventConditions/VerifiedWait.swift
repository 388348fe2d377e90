import EventCore

/// One task waiting in ``NotificationReceiver/verified(after:isolation:)-86agy`` or its bounded
/// form: the first outcome to arrive (the completion, the task's cancellation, the timeout)
/// and the continuation it resumes.
///
/// The outcome may come before the task suspends (a completion inside `work`, a task
/// cancelled already); the continuation then takes it at once. Every continuation is resumed
/// exactly once, after the lock.
final class VerifiedWait: Sendable {
  typealias Outcome = Result<Void, any Error>

  private let state = Lock<(outcome: Outcome?, continuation: CheckedContinuation<Outcome, Never>?)>(
    (nil, nil))

  /// Records `outcome`, unless the wait has one, and resumes the task if it is suspended.
  func finish(_ outcome: Outcome) {
    let resumed = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.continuation = nil }
      return state.continuation
    }
    resumed?.resume(returning: outcome)
  }

  /// Suspends until the wait has its outcome, at once if it has one.
  func outcome(isolation: isolated (any Actor)? = #isolation) async -> Outcome {
    await withCheckedContinuation(isolation: isolation) {
      (continuation: CheckedContinuation<Outcome, Never>) in
      let now = state.withLock { state -> Outcome? in
        if let outcome = state.outcome { return outcome }
        state.continuation = continuation
        return nil
      }
      if let now { continuation.resume(returning: now) }
    }
  }
}
