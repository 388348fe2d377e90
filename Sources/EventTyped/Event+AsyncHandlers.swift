public import EventCore

extension Event {
  /// Registers an async closure for as long as the returned token lives; its calls run one at
  /// a time, in post order, on the closure's own isolation.
  ///
  /// ```swift
  /// Downloads.progress.subscribe { @MainActor progress async in
  ///   await bar.animate(to: progress)
  /// }
  /// .store(in: &subscriptions)
  /// ```
  ///
  /// A closure isolated to a global actor (`{ @MainActor value async in … }`) runs on that
  /// actor; a nonisolated one runs off any actor. A call starts only when the previous one has
  /// returned, so calls never overlap, and they come in post order, unlike Foundation's
  /// `AsyncMessage` observers. `post` never waits for them: each post is queued for the
  /// subscription (without bound) and `post` returns.
  ///
  /// After ``/EventCore/Subscription/cancel()`` returns (or the token is released), no further
  /// call starts and the posts not yet started are dropped; a call already suspended in an
  /// `await` is not waited for, and not cancelled: it finishes on its own. The registration
  /// counts in ``observerCount`` while it lives, and receives the event's replay like every
  /// registration.
  ///
  /// A closure literal with no `await` in it (and not marked `async`) selects the synchronous
  /// ``subscribe(_:)-2rz2g`` instead.
  ///
  /// - Parameter handler: The closure to run for each post.
  /// - Returns: A token that keeps the registration alive: cancel or release it to end it.
  /// - Complexity: Amortised O(1) per post.
  public func subscribe(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) async -> Void
  ) -> Subscription {
    let calls = Liveness()
    let (stream, channel) = makeStream(bufferingPolicy: .unbounded)
    Task { await Self.call(handler, with: stream, while: calls, on: handler.isolation) }
    return Subscription(liveness: calls) { channel.cancel() }
  }

  /// Calls `handler` with each payload of `stream`, one at a time, on `isolation`, which is
  /// the handler's own: the loop runs there, so a call starts without a hop, right after the
  /// check that the subscription is live.
  private static func call(
    _ handler: @isolated(any) @Sendable (Payload) async -> Void, with stream: AsyncStream<Payload>,
    while calls: Liveness, on isolation: isolated (any Actor)?
  ) async {
    for await payload in stream {
      guard calls.isLive else { return }
      await handler(payload)
    }
  }
}
