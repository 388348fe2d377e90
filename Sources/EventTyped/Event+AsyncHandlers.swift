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
  /// subscription, as the event's ``backlog`` says (without bound by default), and `post`
  /// returns.
  ///
  /// After ``/EventCore/Subscription/cancel()`` returns (or the token is released), no further
  /// call starts and the posts not yet started are dropped; a call already suspended in an
  /// `await` is not waited for, and not cancelled: it finishes on its own. The registration
  /// counts in ``observerCount`` while it lives, and receives the event's replay like every
  /// registration.
  ///
  /// A closure literal with no `await` in it (and not marked `async`) selects the synchronous
  /// ``subscribe(priority:_:fileID:line:)-9ws6a`` instead.
  ///
  /// - Parameters:
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run for each post.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that keeps the registration alive: cancel or release it to end it.
  /// - Complexity: Amortised O(1) per post.
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) async -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    subscribeAsync(
      handler, on: handler.isolation, reporting: nil, priority: priority, fileID: fileID,
      line: line)
  }

  /// Registers a throwing async closure for as long as the returned token lives; its calls run
  /// one at a time, in post order, on the closure's own isolation, and what it throws goes to
  /// ``errors``.
  ///
  /// ```swift
  /// Inbox.didReceive.subscribe { message async throws in
  ///   try await store.save(message)
  /// }
  /// .store(in: &subscriptions)
  /// ```
  ///
  /// The same as ``subscribe(priority:_:fileID:line:)-5bkrk`` otherwise, without a `do`/`catch` in
  /// every handler: a call that throws ends that call only, and the next post's call still starts.
  /// The error is posted to ``errors`` as a ``HandlerError`` that names where this call was
  /// written, on the closure's isolation; while nothing observes ``errors``, the first error of
  /// this registration is printed to standard error instead, and later ones print nothing.
  ///
  /// - Parameters:
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run for each post; it may throw.
  ///   - fileID: Where the registration was written, for ``HandlerError``; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that keeps the registration alive: cancel or release it to end it.
  /// - Complexity: Amortised O(1) per post.
  @_disfavoredOverload
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler:
      @escaping @isolated(any) @Sendable (Payload) async throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    subscribeAsync(
      handler, on: handler.isolation, reporting: throwSite(fileID: fileID, line: line),
      priority: priority, fileID: fileID, line: line)
  }

  /// Registers an async handler isolated to `isolation`, whose errors go to `thrown`: a
  /// synchronous registration that queues each payload in an ``AsyncHandlerQueue``.
  private func subscribeAsync(
    _ handler: @escaping @isolated(any) @Sendable (Payload) async throws -> Void,
    on isolation: (any Actor)?, reporting thrown: ThrowSite?, priority: Int,
    fileID: StaticString, line: UInt
  ) -> Subscription {
    let calls = Liveness()
    let site = RegistrationSite(
      .async(isolation: handler.isolation.map { type(of: $0) }), fileID: fileID, line: line)
    let id = streams.withLock { $0.makeID() }
    let queue = AsyncHandlerQueue(
      handler, flow: list.flow, site: site, reporting: thrown, while: calls,
      running: RunningAsyncHandler(event: ObjectIdentifier(self), queue: id))
    let entry = ObserverEntry<Payload>(delivery: .synchronous) { _ = queue.arrive($0) }
    entry.refuses { queue.arrive($0) }
    entry.site = site
    entry.priority = priority
    entry.startsWhereConsumed()
    let subscription = list.subscribeReplaying(entry, endsWithToken: true)
    queue.activate(handedOver: HandedOver(entry))
    // Ends the registration (what is queued still runs unless the token was cancelled) and
    // forgets the queue; both are idempotent.
    let end: @Sendable () -> Void = { [weak self] in
      subscription.cancel()
      let removed = self?.streams.withLock { $0.remove(id) }
      _ = removed
    }
    streams.withLock { registry in
      registry.finishers[id] = end
      registry.flushers[id] = { done in queue.afterQueuedCalls(done) }
    }
    // An `unregisterAll()` that ran between the registration and the line above ended the
    // registration but could not see the queue: forget it here instead.
    if subscription.isCancelled { end() }
    return Subscription(liveness: calls, end)
  }
}
