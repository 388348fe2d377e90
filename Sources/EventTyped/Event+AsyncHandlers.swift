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
  /// ``subscribe(priority:_:fileID:line:)-9ws6a`` instead.
  ///
  /// - Parameters:
  ///   - priority: The registration's place in the call order: higher runs first, equal
  ///     priorities in registration order; 0 by default.
  ///   - handler: The closure to run for each post.
  ///   - fileID: The file the registration was written in, which `String(reflecting:)`
  ///     shows; leave the default.
  ///   - line: The line the registration was written on; leave the default.
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
  /// The same as ``subscribe(priority:_:fileID:line:)-5bkrk`` otherwise, without a `do`/`catch` in every handler: a
  /// call that throws ends that call only, and the next post's call still starts. The error is
  /// posted to ``errors`` as a ``HandlerError`` that names where this call was written, on the
  /// closure's isolation; while nothing observes ``errors``, the first error of this
  /// registration is printed to standard error instead, and later ones print nothing.
  ///
  /// - Parameters:
  ///   - priority: The registration's place in the call order: higher runs first, equal
  ///     priorities in registration order; 0 by default.
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

  /// Starts the loop of an async handler isolated to `isolation`, whose errors go to `site`.
  private func subscribeAsync(
    _ handler: @escaping @isolated(any) @Sendable (Payload) async throws -> Void,
    on isolation: (any Actor)?, reporting thrown: ThrowSite?, priority: Int,
    fileID: StaticString, line: UInt
  ) -> Subscription {
    let calls = Liveness()
    let site = RegistrationSite(
      .async(isolation: handler.isolation.map { type(of: $0) }), fileID: fileID, line: line)
    let (stream, continuation, handedOver, id) = makeHandlerQueue(site: site, priority: priority)
    let running = RunningAsyncHandler(event: ObjectIdentifier(self), queue: id)
    Task {
      // Bound for the whole loop: a `send` made from the handler must not wait for the
      // handler's own queue, which runs nothing until the handler returns.
      await RunningAsyncHandler.$current.withValue(running) {
        await Self.call(
          handler, with: stream, finishing: continuation, while: calls, starting: handedOver,
          reporting: thrown, on: isolation)
      }
    }
    return Subscription(liveness: calls) { continuation.finish() }
  }

  /// Calls `handler` with each payload of `stream`, one at a time, on `isolation`, which is
  /// the handler's own: the loop runs there, so a call starts without a hop, right after the
  /// check that the subscription is live.
  ///
  /// Once the subscription has ended, the loop finishes the stream and skips the payloads left
  /// in it, but still runs the flush markers among them, so that no ``flush()`` waits for a
  /// call that will never come.
  ///
  /// The first payloads may be ones an ``Replay/untilObserved`` event handed over: each counts
  /// as handed over only when its call starts, so those still queued when the subscription
  /// ends go back to the event's hold, and the loop skips them.
  private static func call(
    _ handler: @isolated(any) @Sendable (Payload) async throws -> Void,
    with stream: AsyncStream<HandlerItem>,
    finishing continuation: AsyncStream<HandlerItem>.Continuation,
    while calls: Liveness, starting handedOver: HandedOver<Payload>?,
    reporting site: ThrowSite?, on isolation: isolated (any Actor)?
  ) async {
    var position = 0
    for await item in stream {
      switch item {
      case .payload(let payload):
        defer { position += 1 }
        guard calls.isLive else {
          continuation.finish()
          continue
        }
        if let handedOver, !handedOver.start(at: position) { continue }
        do { try await handler(payload) } catch { site?.report(error) }
      case .flush(let done):
        done()
      }
    }
  }

  /// What waits in an async handler's queue: a payload, or a flush marker.
  enum HandlerItem: Sendable {
    case payload(Payload)
    case flush(@Sendable () -> Void)
  }

  /// The queue of an async handler: a stream registered on this event, like a ``values``
  /// stream, that also takes the markers of ``flush()``.
  private func makeHandlerQueue(site: RegistrationSite, priority: Int) -> (
    stream: AsyncStream<HandlerItem>, continuation: AsyncStream<HandlerItem>.Continuation,
    handedOver: HandedOver<Payload>?, id: Int
  ) {
    let (stream, continuation) = AsyncStream.makeStream(of: HandlerItem.self)
    let id = streams.withLock { $0.makeID() }
    let entry = ObserverEntry<Payload>(delivery: .synchronous) {
      continuation.yield(.payload($0))
    }
    entry.site = site
    entry.priority = priority
    entry.startsWhereConsumed()
    let subscription = list.subscribeReplaying(entry, endsWithToken: true)
    let handedOver = HandedOver(entry)
    continuation.onTermination = { [weak self] _ in
      subscription.cancel()
      let removed = self?.streams.withLock { $0.remove(id) }
      _ = removed
    }
    streams.withLock { registry in
      registry.finishers[id] = { continuation.finish() }
      registry.flushers[id] = { done in
        // A finished queue runs nothing more: nothing to wait for.
        if case .terminated = continuation.yield(.flush(done)) { done() }
      }
    }
    // An `unregisterAll()` that ran between the registration and the line above ended the
    // registration but could not see the queue: finish it here instead.
    if subscription.isCancelled { continuation.finish() }
    return (stream, continuation, handedOver, id)
  }
}
