import EventCore
public import Synchronization

/// The outcome of one ``Event/next(where:timeout:after:isolation:)-3fw03`` call: the first of a
/// matching payload, the timeout and the task's cancellation to arrive, and the continuation
/// that the outcome resumes.
///
/// The wait's registration is a once-registration filtered by the predicate
/// (`ObserverEntry.runOnce(where:)`): the post whose payload matches claims it and leaves the
/// list inside that post, so a finished wait is never counted as reached, never runs the
/// predicate again, and an `.untilObserved` event holds the posts that come after it. A timeout
/// or a cancellation claims the registration the same way before it settles
/// (``fail(_:claiming:)``): whichever claims first is the outcome, so no payload is taken by a wait
/// that then throws. A wait kept in a keyed event's slot has no entry: its outcomes claim the
/// waiter itself (``claim()``).
@usableFromInline final class NextWaiter<Payload: Sendable>: RemovalObserving {
  @usableFromInline typealias Outcome = Result<Payload, any Error>

  @usableFromInline struct State: Sendable {
    @usableFromInline var outcome: Outcome?
    /// Resumed without a value: the task reads the outcome from here. A continuation of the
    /// payload's type would be copied through its generic metadata, looked up on every wait.
    /// Checked, not unsafe: ThreadSanitizer does not see an unsafe continuation's hand-off to
    /// the resumed task and reports a race with the task's next frame.
    @usableFromInline var continuation: CheckedContinuation<Void, Never>?

    @inlinable init() {}
  }

  @usableFromInline let state: Lock<State>
  /// Whether the wait was claimed, when it is kept outside any list (a keyed event's slot) and
  /// so has no entry to claim; see ``claim()``.
  @usableFromInline let claimed: Atomic<Bool>

  // The lock is made here rather than by a property initializer, which the module runs
  // unspecialized: at the payload's type, making it looks up no metadata.
  @inlinable init() {
    state = Lock(State())
    claimed = Atomic(false)
  }

  /// The registration that feeds this wait, not yet registered: it holds the waiter, and the
  /// waiter nothing of it.
  @inlinable
  func makeEntry(_ predicate: @escaping @Sendable (Payload) -> Bool) -> ObserverEntry<Payload> {
    let entry = ObserverEntry<Payload>(delivery: .synchronous) { self.succeed($0) }
    entry.runOnce(where: predicate, removal: self)
    return entry
  }

  /// Settles with a payload: one a post matched and claimed the registration with, or one the
  /// caller took from the hold and the predicate accepted.
  @inlinable
  func succeed(_ payload: Payload) {
    finish(with: .success(payload))
  }

  /// Ends the wait with `error`, unless a post claimed `entry` first; the claim takes the
  /// registration out of its list.
  @inlinable
  func fail(_ error: any Error, claiming entry: some WaitClaim) {
    guard entry.claim() else { return }
    finish(with: .failure(error))
  }

  /// Ends the wait with `CancellationError` when `unregisterAll()` ended its registration: no post
  /// can claim it any more, and a timeout or a cancellation would find it claimed.
  @usableFromInline func registrationRemoved() {
    finish(with: .failure(CancellationError()))
  }

  /// Suspends until the wait has its outcome (at once if it has), or the task is cancelled,
  /// which fails it unless a post claimed `entry` first.
  @inlinable
  func outcome(
    claiming entry: some WaitClaim, isolation: isolated (any Actor)? = #isolation
  ) async -> Outcome {
    await withTaskCancellationHandler {
      await withCheckedContinuation(isolation: isolation) {
        (continuation: CheckedContinuation<Void, Never>) in
        let settled = state.withLock { state -> Bool in
          if state.outcome != nil { return true }
          state.continuation = continuation
          return false
        }
        if settled { continuation.resume() }
      }
    } onCancel: {
      fail(CancellationError(), claiming: entry)
    }
    // Set before the continuation was resumed, and never changed after.
    return state.withLock { $0.outcome.unsafelyUnwrapped }
  }

  /// Suspends until the wait has its outcome, at most `timeout` from now (`nil`: no bound).
  @inlinable
  func outcome(
    claiming claim: some WaitClaim, timeout: Duration?,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Outcome {
    guard let timeout else { return await outcome(claiming: claim) }
    let timer = TimeoutTimer(timeout) { [self] in
      fail(EventTimeout(timeout: timeout), claiming: claim)
    }
    let outcome = await outcome(claiming: claim)
    await timer.end()
    return outcome
  }

  /// Records `outcome` unless another came first, and resumes the task if it waits already.
  @inlinable
  func finish(with outcome: Outcome) {
    let resumed = state.withLock { settle(&$0, with: outcome) }
    resumed?.resume()
  }

  /// Records the first outcome, under the lock.
  ///
  /// - Returns: The continuation to resume with it, after the lock, if the task waits already.
  @inlinable
  func settle(_ state: inout State, with outcome: Outcome) -> CheckedContinuation<Void, Never>? {
    guard state.outcome == nil else { return nil }
    state.outcome = outcome
    defer { state.continuation = nil }
    return state.continuation
  }
}

/// What a wait's outcomes race to claim: its entry in a list, or, for a wait kept outside any
/// list, the waiter itself. The first claim wins; every other outcome is dropped.
@usableFromInline protocol WaitClaim: AnyObject, Sendable {
  /// Claims the wait. Returns `false` when another outcome claimed it first.
  func claim() -> Bool
}

extension ObserverEntry: WaitClaim {}

extension NextWaiter: WaitClaim {
  /// Claims a wait kept outside any list.
  @inlinable func claim() -> Bool {
    !claimed.exchange(true, ordering: .acquiringAndReleasing)
  }

  /// Whether no outcome has claimed a wait kept outside any list.
  @inlinable var isLive: Bool {
    !claimed.load(ordering: .acquiring)
  }
}
