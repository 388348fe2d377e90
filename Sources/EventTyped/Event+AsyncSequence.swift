import EventCore

/// The continuations of an event's live `values` streams, by stream.
struct StreamRegistry<Payload: Sendable>: Sendable {
  var continuations: [Int: AsyncStream<Payload>.Continuation] = [:]
  var nextID = 0
}

extension Event {
  /// Every value posted from now on, as an asynchronous sequence.
  ///
  /// Each access creates a new stream with its own registration, so every consumer gets every
  /// value posted after it accessed `values`, in post order:
  ///
  /// ```swift
  /// for await (name, bytes) in Downloads.didFinish.values {
  ///   print(name, bytes)
  /// }
  /// ```
  ///
  /// The registration is made when `values` is read, not when iteration starts: values posted
  /// between the two wait in the stream. So read it before you start what posts, and hand the
  /// stream to the task that iterates; a task that reads `values` itself registers only when it
  /// first runs, and misses what was posted before then:
  ///
  /// ```swift
  /// let finished = Downloads.didFinish.values  // registered here
  /// startDownloads()
  /// Task {
  ///   for await (name, bytes) in finished { print(name, bytes) }
  /// }
  /// ```
  ///
  /// The stream buffers without bound: a slow consumer misses nothing, and values wait in the
  /// stream until it reads them. Use ``values(bufferingPolicy:)`` to bound that buffer.
  ///
  /// The stream finishes when the event is deallocated or ``unregisterAll()`` is called. Ending
  /// the iteration (or cancelling its task, or releasing an unread stream) ends the stream's
  /// registration. While it lives the stream counts in ``observerCount``.
  ///
  /// Values are handed to the stream on the posting thread, whatever the event's delivery; the
  /// consumer runs wherever its task runs. Thread-safe.
  public var values: AsyncStream<Payload> {
    values(bufferingPolicy: .unbounded)
  }

  /// Every value posted from now on, as an asynchronous sequence whose buffer follows `policy`.
  ///
  /// Like ``values``, with a bound on the values waiting for a slow consumer:
  /// `.bufferingNewest(n)` keeps the latest `n` and drops older ones, `.bufferingOldest(n)`
  /// keeps the first `n` and drops newer ones.
  ///
  /// ```swift
  /// for await progress in Downloads.progress.values(bufferingPolicy: .bufferingNewest(1)) {
  ///   bar.update(progress)
  /// }
  /// ```
  ///
  /// Thread-safe.
  ///
  /// - Parameter policy: What the stream keeps when values arrive faster than they are read.
  /// - Returns: A new stream with its own registration.
  public func values(
    bufferingPolicy policy: AsyncStream<Payload>.Continuation.BufferingPolicy
  ) -> AsyncStream<Payload> {
    makeStream(bufferingPolicy: policy).stream
  }

  /// A stream registered on this event, and the continuation that ends it (finishing it ends
  /// the registration too); finished by ``unregisterAll()`` and the event's deinit.
  func makeStream(
    bufferingPolicy policy: AsyncStream<Payload>.Continuation.BufferingPolicy
  ) -> (stream: AsyncStream<Payload>, continuation: AsyncStream<Payload>.Continuation) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Payload.self, bufferingPolicy: policy)
    let id = streams.withLock { registry in
      registry.nextID += 1
      return registry.nextID
    }
    // Yielded on the posting thread: the continuation is thread-safe and keeps post order, and
    // a hop through the event's delivery would only delay the value.
    let subscription = list.subscribeReplaying(
      ObserverEntry(delivery: .synchronous) { continuation.yield($0) }, endsWithToken: true)
    continuation.onTermination = { [weak self] _ in
      subscription.cancel()
      let removed = self?.streams.withLock { $0.continuations.removeValue(forKey: id) }
      _ = removed
    }
    streams.withLock { $0.continuations[id] = continuation }
    // An `unregisterAll()` that ran between `subscribe` and the line above ended the
    // registration but could not see the continuation: finish it here instead.
    if subscription.isCancelled { continuation.finish() }
    return (stream, continuation)
  }

  /// Finishes every live stream, outside the lock: finishing runs its termination handler.
  func finishStreams() {
    let continuations = streams.withLock { registry in
      defer { registry.continuations = [:] }
      return Array(registry.continuations.values)
    }
    for continuation in continuations { continuation.finish() }
  }
}
