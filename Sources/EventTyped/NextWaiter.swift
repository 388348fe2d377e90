import EventCore
import Synchronization

/// The outcome of one ``Event/next(where:timeout:after:isolation:)`` call: the first of a
/// matching payload, the timeout and the task's cancellation to arrive, and the continuation
/// that the outcome resumes.
///
/// While `next` takes the payloads an `.untilObserved` event holds (``beginHeldPhase()``), a
/// matching live post is set aside rather than taken, since every held payload is older: it is
/// the outcome only if no held payload matches (``endHeldPhase()``).
final class NextWaiter<Payload: Sendable>: Sendable {
  typealias Outcome = Result<Payload, any Error>

  private struct State: Sendable {
    var outcome: Outcome?
    var continuation: CheckedContinuation<Outcome, Never>?
    var isTakingHeld = false
    var liveMatch: Payload?
  }

  private let predicate: @Sendable (Payload) -> Bool
  private let state = Lock(State())
  /// Whether `State.outcome` is set, read without the lock by every post that reaches the
  /// registration until it ends: set once, under the lock, and never cleared.
  private let settled = Atomic<Bool>(false)

  init(_ predicate: @escaping @Sendable (Payload) -> Bool) {
    self.predicate = predicate
  }

  /// Offers a payload the registration received (`live`) or took from the hold.
  ///
  /// The predicate runs on the calling thread, with no lock held.
  func offer(_ payload: Payload, live: Bool) {
    guard !isSettled, predicate(payload) else { return }
    let resumed = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
      if live && state.isTakingHeld {
        if state.liveMatch == nil { state.liveMatch = payload }
        return nil
      }
      return settle(&state, with: .success(payload))
    }
    resumed?.resume(returning: .success(payload))
  }

  /// Ends the wait with `error`, unless it has an outcome already.
  func fail(_ error: any Error) {
    let resumed = state.withLock { settle(&$0, with: .failure(error)) }
    resumed?.resume(returning: .failure(error))
  }

  /// Whether the wait has its outcome; a registration stops offering once it has.
  var isSettled: Bool {
    settled.load(ordering: .acquiring)
  }

  /// Sets matching live posts aside until ``endHeldPhase()``.
  func beginHeldPhase() {
    state.withLock { $0.isTakingHeld = true }
  }

  /// Takes a live match set aside, if no held payload matched.
  func endHeldPhase() {
    let (resumed, payload) = state.withLock {
      state -> (CheckedContinuation<Outcome, Never>?, Payload?) in
      state.isTakingHeld = false
      guard let payload = state.liveMatch else { return (nil, nil) }
      state.liveMatch = nil
      return (settle(&state, with: .success(payload)), payload)
    }
    if let resumed, let payload { resumed.resume(returning: .success(payload)) }
  }

  /// Suspends until the wait has its outcome (at once if it has), or the task is cancelled.
  func outcome(isolation: isolated (any Actor)? = #isolation) async -> Outcome {
    await withTaskCancellationHandler {
      await withCheckedContinuation(isolation: isolation) {
        (continuation: CheckedContinuation<Outcome, Never>) in
        let now = state.withLock { state -> Outcome? in
          if let outcome = state.outcome { return outcome }
          state.continuation = continuation
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      fail(CancellationError())
    }
  }

  /// Records the first outcome, under the lock.
  ///
  /// - Returns: The continuation to resume with it, after the lock, if the task waits already.
  private func settle(_ state: inout State, with outcome: Outcome)
    -> CheckedContinuation<Outcome, Never>?
  {
    guard state.outcome == nil else { return nil }
    state.outcome = outcome
    settled.store(true, ordering: .releasing)
    defer { state.continuation = nil }
    return state.continuation
  }
}
