/// One task waiting for an outcome: the first one to arrive (a value, an error such as a
/// timeout or a cancellation) and the continuation it resumes.
///
/// The outcome may come before the task suspends (a reply posted inside `work`, a task
/// cancelled already); the continuation then takes it at once. The continuation is resumed
/// exactly once, after the lock. EventConditions' `verified` waits and EventTesting's
/// recorders wait through it.
package final class OutcomeSlot<Value: Sendable>: Sendable {
  package typealias Outcome = Result<Value, any Error>

  private let state = Lock<(outcome: Outcome?, continuation: CheckedContinuation<Outcome, Never>?)>(
    (nil, nil))

  package init() {}

  /// Records `outcome`, unless the slot has one, and resumes the task if it is suspended.
  package func finish(_ outcome: Outcome) {
    let resumed = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.continuation = nil }
      return state.continuation
    }
    resumed?.resume(returning: outcome)
  }

  /// Suspends until the slot has its outcome, at once if it has one.
  package func outcome(isolation: isolated (any Actor)? = #isolation) async -> Outcome {
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
