import EventCore

// The waiting forms of a channel: each registers on the key for as long as it waits (or, for
// `values`, as long as the stream lives), and its end removes the key if nothing else is left.
extension KeyedEvent.Channel {
  /// Waits for the next payload posted to this key for which `predicate` holds, as ``Event``'s
  /// `next(where:timeout:after:isolation:)` does: the wait is registered before `work` runs, and
  /// leaves the key inside the post that delivers its payload.
  ///
  /// ```swift
  /// let reply = try await replies[request.id].next(timeout: .seconds(5)) {
  ///   connection.send(request)
  /// }
  /// ```
  ///
  /// A post to another key never runs `predicate`: with one waiter per key, a reply costs one
  /// lookup whatever the number of requests in flight.
  ///
  /// - Parameters:
  ///   - predicate: Which payload to return; every payload by default.
  ///   - timeout: How long to wait once `work` has returned; `nil` (the default) waits without
  ///     bound.
  ///   - work: Starts whatever will post; it runs once, on the caller's actor, after the
  ///     registration.
  ///   - isolation: The actor that `work` runs on: the caller's, by default.
  /// - Returns: The first matching payload.
  /// - Throws: `CancellationError` when the task is cancelled first (or ``unregisterAll()``
  ///   ends the wait), and
  ///   ``/EventCore/EventTimeout`` when `timeout` passes first.
  @inlinable
  public func next(
    where predicate: @escaping @Sendable (Payload) -> Bool = { _ in true },
    timeout: Duration? = nil, after work: () -> Void = {},
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    let wait = keyed.beginWaiting(key, where: predicate)
    work()
    return try await wait.outcome(timeout: timeout)
  }

  /// Runs `work`, then waits for the next payload posted to this key, with no filter and no
  /// bound: the form a lone trailing closure selects.
  @inlinable
  public func next(
    after work: () -> Void, isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    try await next(where: { _ in true }, timeout: nil, after: work, isolation: isolation)
  }

  /// Waits for the next payload posted to this key for which `predicate` holds, registering
  /// before `work` runs: the form for a request sent with `await` or `try`.
  ///
  /// ```swift
  /// let reply = try await replies[request.id].next(timeout: .seconds(5)) {
  ///   try await connection.send(request)
  /// }
  /// ```
  ///
  /// - Throws: What `work` throws, after the registration has ended (no key is left behind);
  ///   otherwise `CancellationError` or ``/EventCore/EventTimeout``.
  @inlinable
  public func next(
    where predicate: @escaping @Sendable (Payload) -> Bool = { _ in true },
    timeout: Duration? = nil, after work: nonisolated(nonsending) () async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    try await keyed.beginWaiting(key, where: predicate).outcome(after: work, timeout: timeout)
  }

  /// Runs `work`, which may suspend or throw, then waits for the next payload posted to this
  /// key, with no filter and no bound.
  @inlinable
  public func next(
    after work: nonisolated(nonsending) () async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Payload {
    try await next(where: { _ in true }, timeout: nil, after: work, isolation: isolation)
  }

  /// Every value posted to this key from now on, as an asynchronous sequence; as
  /// ``Event/values``. The key stays while the stream lives.
  public var values: AsyncStream<Payload> {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.values
  }

  /// Every value posted to this key from now on, as an asynchronous sequence whose buffer
  /// follows `policy`; as ``Event/values(bufferingPolicy:fileID:line:)``.
  public func values(
    bufferingPolicy policy: AsyncStream<Payload>.Continuation.BufferingPolicy,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> AsyncStream<Payload> {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.values(bufferingPolicy: policy, fileID: fileID, line: line)
  }

  /// Waits until every delivery already handed to a queue, an actor or an async handler of this
  /// key has run; as ``Event/flush()``. Returns at once for a key with no registration.
  public func flush() async {
    await keyed.event(of: key)?.flush()
  }
}
