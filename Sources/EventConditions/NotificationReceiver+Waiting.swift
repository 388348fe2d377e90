import EventCore

extension NotificationReceiver {
  /// Runs `work`, which starts what will arrive, then waits until the set completes, for at
  /// most `timeout`: ``verified(after:isolation:)-86agy`` with a bound.
  ///
  /// ```swift
  /// do {
  ///   try await receiver.verified(timeout: .seconds(5)) { startRequests() }
  ///   showScreen()
  /// } catch is EventTimeout {
  ///   showRetry(missing: ["profile", "friends"].filter { receiver.remaining($0) > 0 })
  /// }
  /// ```
  ///
  /// The wait is registered before `work` runs, as with ``verified(after:isolation:)-86agy``: the
  /// first completion after the call counts, even one inside `work`, and a set verified once
  /// `work` has returned (latched) returns at once.
  ///
  /// When `timeout` passes first, the round is left as it was: arrivals already counted stay
  /// counted, and the next arrivals continue the round. Call ``reset()`` to start over. Nothing
  /// is left behind: the wait and its timer have ended when the error is thrown.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait once `work` has returned.
  ///   - work: Starts whatever will arrive; it runs once, synchronously, on the caller's actor,
  ///     with no lock held (it may check, ignore or reset this receiver). Nothing by default.
  ///   - isolation: The actor that `work` runs on: the caller's, by default.
  /// - Throws: ``/EventCore/EventTimeout``, carrying `timeout`, when it passes first;
  ///   `CancellationError` when the task is cancelled first. A completion that came first wins.
  public func verified(
    timeout: Duration, after work: () -> Void = {}, isolation: isolated (any Actor)? = #isolation
  ) async throws {
    let wait = beginWait()
    work()
    try await endWait(wait, timeout: timeout).get()
  }

  /// Registers the wait, awaits `work`, then waits until the set completes: the form of
  /// ``verified(after:isolation:)-86agy`` for work that is itself `async`.
  ///
  /// ```swift
  /// await receiver.verified {
  ///   await client.send(.profile)
  ///   await client.send(.friends)
  /// }
  /// ```
  ///
  /// The wait is registered before `work` starts, so arrivals while it runs count, and a
  /// completion inside it returns as soon as `work` has returned. If the task is cancelled the
  /// call returns without a completion, once `work` has returned; check `Task.isCancelled` when
  /// that matters.
  ///
  /// - Parameters:
  ///   - work: Starts whatever will arrive, awaited on the caller's actor.
  ///   - isolation: The actor that `work` runs on: the caller's, by default.
  public func verified(
    after work: () async -> Void, isolation: isolated (any Actor)? = #isolation
  ) async {
    let wait = beginWait()
    await work()
    _ = await endWait(wait, timeout: nil)
  }

  /// ``verified(timeout:after:isolation:)-78c9l`` for `async` work: registers the wait, awaits
  /// `work`, then waits for at most `timeout`.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait once `work` has returned.
  ///   - work: Starts whatever will arrive, awaited on the caller's actor.
  ///   - isolation: The actor that `work` runs on: the caller's, by default.
  /// - Throws: ``/EventCore/EventTimeout`` when `timeout` passes first, `CancellationError`
  ///   when the task is cancelled first; the round is left as it was.
  public func verified(
    timeout: Duration, after work: () async -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    let wait = beginWait()
    await work()
    try await endWait(wait, timeout: timeout).get()
  }

  /// Registers a wait, before the caller's work runs.
  func beginWait() -> (id: UInt64, wait: VerifiedWait) {
    let wait = VerifiedWait()
    let id = state.withLock { $0.waiters.register() }
    return (id, wait)
  }

  /// Waits for the completion, the task's cancellation or the timeout, whichever comes first,
  /// then drops the wait and stops its timer.
  func endWait(
    _ registered: (id: UInt64, wait: VerifiedWait), timeout: Duration?,
    isolation: isolated (any Actor)? = #isolation
  ) async -> VerifiedWait.Outcome {
    let (id, wait) = registered
    // A completion since `beginWait`, or a latched set, makes the wait due at once.
    let due = state.withLock { state in
      state.waiters.store(wait, for: id, isVerified: state.machine.isVerified)
    }
    due?.finish(.success(()))
    let timer = timeout.map { timeout in
      TimeoutTimer(timeout) { self.abandon(registered, with: EventTimeout(timeout: timeout)) }
    }
    let outcome = await withTaskCancellationHandler {
      await wait.outcome()
    } onCancel: {
      abandon(registered, with: CancellationError())
    }
    await timer?.end()
    return outcome
  }

  /// Ends a wait with `error` (unless it has an outcome) and stops tracking it; the round is
  /// not touched.
  private func abandon(_ registered: (id: UInt64, wait: VerifiedWait), with error: any Error) {
    // The waiter leaves before the wait ends: the caller, resumed by `finish`, reads no waiter
    // (a timer's `expire` may still be running when the caller's `end()` returns).
    let dropped = state.withLock { $0.waiters.cancel(registered.id) }
    registered.wait.finish(.failure(error))
    _ = dropped
  }
}
