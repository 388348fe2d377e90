import EventCore

extension Event {
  /// Waits for the next payload for which `predicate` holds, and returns it: the one-shot,
  /// filtered wait for a reply.
  ///
  /// The wait is registered before `work` runs, so a reply that `work` causes is never missed,
  /// even one posted inside `work` itself or on another thread before the task suspends:
  ///
  /// ```swift
  /// let reply = try await Replies.received.next(where: { $0.id == request.id }) {
  ///   client.send(request)
  /// }
  /// ```
  ///
  /// The registration ends on every path: a payload, the timeout, the task's cancellation. It
  /// receives each post on the posting thread, whatever the event's delivery, and counts in
  /// ``observerCount`` while it waits. It leaves the event inside the post that matches, before
  /// that post returns: a later post does not count it as reached or run `predicate` again, and
  /// an ``Replay/untilObserved`` event holds that post for the next registration. A timeout or
  /// a cancellation ends it the same way; when one races a matching post, whichever ends the
  /// registration first is the outcome, so a payload is never taken by a wait that throws.
  ///
  /// With a replay, what the event retains comes first, oldest first: the oldest retained
  /// payload that matches is returned at once. With ``Replay/untilObserved`` the call takes
  /// held payloads one at a time, oldest first, until one matches (the rejected ones are
  /// consumed, as a live post it rejects would be), and leaves the rest held for the next
  /// registration, as ``subscribeOnce(priority:_:fileID:line:)`` does; with the default predicate
  /// it takes the oldest held payload only.
  ///
  /// - Parameters:
  ///   - predicate: Which payload to return; every payload by default. Called on the posting
  ///     thread, with no lock held, for each payload until one matches.
  ///   - timeout: How long to wait once `work` has returned; `nil` (the default) waits without
  ///     bound. When it passes first the call throws ``/EventCore/EventTimeout``, carrying it.
  ///   - work: Starts whatever will post: a request, a timer. It runs once, synchronously, on
  ///     the caller's actor, after the registration and before the task suspends.
  ///   - isolation: The actor that `work` runs on: the caller's, by default, which lets `work`
  ///     use the caller's state without being `Sendable`.
  /// - Returns: The first matching payload.
  /// - Throws: `CancellationError` when the task is cancelled before a payload matches (or
  ///   ``unregisterAll()`` ends the wait), and ``/EventCore/EventTimeout`` when `timeout` passes
  ///   first. A payload that matched first
  ///   wins, also over a cancellation that came before the call: `work`'s reply is returned.
  ///   Neither leaves a registration or a task behind.
  @inlinable
  public func next(
    where predicate: @escaping @Sendable (Payload) -> Bool = { _ in true },
    timeout: Duration? = nil, after work: () -> Void = {},
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    let wait = beginWaiting(where: predicate)
    work()
    return try await wait.outcome(timeout: timeout)
  }

  /// Registers a wait for the next payload `predicate` accepts: in the list, or, with
  /// ``Replay/untilObserved``, settled by a held payload first.
  @inlinable
  func beginWaiting(where predicate: @escaping @Sendable (Payload) -> Bool) -> NextWait<Payload> {
    let waiter = NextWaiter<Payload>()
    return beginWaiting(waiter, entry: waiter.makeEntry(predicate), where: predicate)
  }

  /// Registers the wait of `waiter`, fed by `entry`, which `waiter.makeEntry(predicate)` made.
  @inlinable
  func beginWaiting(
    _ waiter: NextWaiter<Payload>, entry: ObserverEntry<Payload>,
    where predicate: @escaping @Sendable (Payload) -> Bool
  ) -> NextWait<Payload> {
    var registration: Subscription?
    if replay == .untilObserved {
      // Held payloads one at a time, the predicate outside the lock, until one matches or
      // nothing is held and the wait registers (in the same critical section as the check).
      taking: while true {
        switch list.subscribeUnlessHolding(entry) {
        case .held(let payload):
          guard predicate(payload) else { continue }
          _ = entry.claim()
          waiter.succeed(payload)
          break taking
        case .registered(let token):
          registration = token
          break taking
        }
      }
    } else if replay == .none {
      // Every outcome claims the entry, which takes it out of the list: no token is needed.
      list.subscribeClaimed(entry)
    } else {
      registration = list.subscribeReplaying(entry, endsWithToken: true)
    }
    return NextWait(waiter: waiter, entry: entry, registration: registration)
  }
}

/// A registered `next`, on an event or a key: what the forms whose work is async share.
@usableFromInline protocol PendingWait {
  associatedtype Payload: Sendable
  /// Waits for the outcome, at most `timeout` from now, and ends the registration.
  func outcome(timeout: Duration?, isolation: isolated (any Actor)?) async throws -> Payload
  /// Ends the wait without an outcome, for work that threw.
  func end()
}

extension PendingWait {
  /// Runs `work`, then waits for the outcome; when `work` throws, ends the wait (a reply that
  /// arrived meanwhile is dropped with it) and rethrows.
  @inlinable
  func outcome(
    after work: nonisolated(nonsending) () async throws -> Void, timeout: Duration?,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    do {
      try await work()
    } catch {
      end()
      throw error
    }
    return try await outcome(timeout: timeout, isolation: isolation)
  }
}

/// A registered `next`: its waiter, the registration that feeds it, and the token that ends it.
@usableFromInline struct NextWait<Payload: Sendable>: PendingWait {
  @usableFromInline let waiter: NextWaiter<Payload>
  @usableFromInline let entry: ObserverEntry<Payload>
  @usableFromInline let registration: Subscription?

  @inlinable
  init(waiter: NextWaiter<Payload>, entry: ObserverEntry<Payload>, registration: Subscription?) {
    self.waiter = waiter
    self.entry = entry
    self.registration = registration
  }

  /// Waits for the outcome, at most `timeout` from now, then ends the registration.
  @inlinable
  func outcome(timeout: Duration?, isolation: isolated (any Actor)? = #isolation) async throws
    -> Payload
  {
    let outcome = await waiter.outcome(claiming: entry, timeout: timeout)
    registration?.cancel()
    return try outcome.get()
  }

  /// Ends the wait without an outcome, for work that threw: the registration leaves its list.
  @inlinable
  func end() {
    _ = entry.claim()
    registration?.cancel()
  }
}

extension Event {
  /// Runs `work`, then waits for the next payload, with no filter and no bound: the spelling of
  /// ``next(where:timeout:after:isolation:)-3fw03`` that a lone trailing closure selects.
  ///
  /// ```swift
  /// let user = try await Session.didLogin.next { presentLogin() }
  /// ```
  ///
  /// A trailing closure after no argument binds to `next(where:…)`'s first parameter, the
  /// predicate, so this form takes it as `work` instead.
  ///
  /// - Parameters:
  ///   - work: Starts whatever will post; it runs once, on the caller's actor, after the
  ///     registration.
  ///   - isolation: The actor that `work` runs on: the caller's, by default.
  /// - Returns: The next payload (the oldest retained first, with a replay).
  /// - Throws: `CancellationError` when the task is cancelled first.
  @inlinable
  public func next(
    after work: () -> Void, isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    try await next(where: { _ in true }, timeout: nil, after: work, isolation: isolation)
  }
}

extension Event {
  /// Waits for the next payload for which `predicate` holds, registering before `work` runs:
  /// the form for a request sent with `await` or `try`.
  ///
  /// ```swift
  /// let reply = try await Replies.received.next(where: { $0.id == request.id }) {
  ///   try await client.send(request)
  /// }
  /// ```
  ///
  /// The same as ``next(where:timeout:after:isolation:)-3fw03`` in every other way:
  /// a reply posted while `work` is suspended, or before it returns, is not missed, and the wait
  /// leaves the event inside the post that matches. A closure with no `await` and no `try`
  /// selects that form.
  ///
  /// - Parameters:
  ///   - predicate: Which payload to return; every payload by default. Called on the posting
  ///     thread, with no lock held, for each payload until one matches.
  ///   - timeout: How long to wait once `work` has returned; `nil` (the default) waits without
  ///     bound.
  ///   - work: Starts whatever will post. It runs once, on the caller's actor, after the
  ///     registration.
  ///   - isolation: The actor that `work` runs on: the caller's, by default.
  /// - Returns: The first matching payload.
  /// - Throws: What `work` throws, after the registration has ended (a reply that arrived
  ///   while it ran is dropped with it); otherwise as the other form: `CancellationError`,
  ///   ``/EventCore/EventTimeout``.
  @inlinable
  public func next(
    where predicate: @escaping @Sendable (Payload) -> Bool = { _ in true },
    timeout: Duration? = nil, after work: nonisolated(nonsending) () async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    try await beginWaiting(where: predicate).outcome(after: work, timeout: timeout)
  }

  /// Runs `work`, which may suspend or throw, then waits for the next payload, with no filter
  /// and no bound: the spelling of ``next(where:timeout:after:isolation:)-6zlei``
  /// that a lone trailing closure selects.
  ///
  /// ```swift
  /// let user = try await Session.didLogin.next { try await presentLogin() }
  /// ```
  ///
  /// - Parameters:
  ///   - work: Starts whatever will post; it runs once, on the caller's actor, after the
  ///     registration.
  ///   - isolation: The actor that `work` runs on: the caller's, by default.
  /// - Returns: The next payload (the oldest retained first, with a replay).
  /// - Throws: What `work` throws, or `CancellationError` when the task is cancelled first.
  @inlinable
  public func next(
    after work: nonisolated(nonsending) () async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    try await next(where: { _ in true }, timeout: nil, after: work, isolation: isolation)
  }
}
