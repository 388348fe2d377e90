import EventCore

/// How to finish each of an event's live streams (its `values` streams and its async
/// handlers' queues), by stream, and how to flush those of async handlers.
struct StreamRegistry: Sendable {
  var finishers: [Int: @Sendable () -> Void] = [:]
  /// Each queues a flush marker behind the payloads its async handler has not yet run
  /// (`Event+Flush.swift`).
  var flushers: [Int: @Sendable (@escaping @Sendable () -> Void) -> Void] = [:]
  /// Each waits, for a `send`, until its `values` stream's consumer has read what arrived so
  /// far (`Event+Send.swift`).
  var passers: [Int: @Sendable (@escaping @Sendable () -> Void) -> Void] = [:]
  var nextID = 0

  mutating func makeID() -> Int {
    nextID += 1
    return nextID
  }

  /// Forgets stream `id`; what it drops is returned, to be released after the lock.
  mutating func remove(_ id: Int) -> (
    finisher: (@Sendable () -> Void)?, flusher: Any?, passer: Any?
  ) {
    (
      finishers.removeValue(forKey: id), flushers.removeValue(forKey: id),
      passers.removeValue(forKey: id)
    )
  }
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
  /// The stream's buffer follows the event's ``backlog``: by default it buffers without bound,
  /// so a slow consumer misses nothing and values wait in the stream until it reads them; with
  /// `.dropOldest(n)` it keeps the newest `n` (`.bufferingNewest(n)`), with `.dropNewest(n)` the
  /// oldest. What it drops is reported to ``drops``. Use
  /// ``values(bufferingPolicy:fileID:line:)`` to choose the buffer per stream.
  ///
  /// The stream finishes when the event is deallocated or ``unregisterAll()`` is called; the
  /// consumer first reads what is buffered. Ending the iteration (or cancelling its task, or
  /// releasing an unread stream) ends the stream's registration. Once the consuming task is
  /// cancelled, `next()` returns `nil` and the buffered values are dropped: a consumer that
  /// cancels itself on a value receives nothing after it. While it lives the stream counts in
  /// ``observerCount``. Read each stream from one task at a time: a second task waiting on it
  /// at once stops the program with a message.
  ///
  /// Values are handed to the stream on the posting thread, whatever the event's delivery; the
  /// consumer runs wherever its task runs. Thread-safe.
  public var values: AsyncStream<Payload> {
    makeStream(bufferingPolicy: backlog.bufferingPolicy(of: Payload.self)).stream
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
  /// What the buffer drops is reported to ``drops``, with where this call was written, as a
  /// bounded backlog's drops are. Thread-safe.
  ///
  /// - Parameters:
  ///   - policy: What the stream keeps when values arrive faster than they are read.
  ///   - fileID: Where the stream was made, for ``/EventCore/Drop``; leave the default.
  ///   - line: The line where the stream was made; leave the default.
  /// - Returns: A new stream with its own registration.
  public func values(
    bufferingPolicy policy: AsyncStream<Payload>.Continuation.BufferingPolicy,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> AsyncStream<Payload> {
    makeStream(bufferingPolicy: policy, site: RegistrationSite(.stream, fileID: fileID, line: line))
      .stream
  }

  /// A stream registered on this event, and the channel that feeds it (finishing the channel
  /// lets the consumer read what is buffered, then ends the stream); finished by
  /// ``unregisterAll()`` and the event's deinit.
  func makeStream(
    bufferingPolicy policy: AsyncStream<Payload>.Continuation.BufferingPolicy,
    site: RegistrationSite = .madeByThePackage
  ) -> (stream: AsyncStream<Payload>, channel: ValueChannel<Payload>) {
    let flow = list.flow
    let printed = PrintedOnce()
    let channel = ValueChannel<Payload>(policy: policy) { count in
      flow?.reportDrops(count, of: site) { printed.first() }
    }
    let id = streams.withLock { $0.makeID() }
    // Yielded on the posting thread: the channel is thread-safe and keeps post order, and a
    // hop through the event's delivery would only delay the value.
    let entry = ObserverEntry<Payload>(delivery: .synchronous) { channel.yield($0) }
    // What an `.untilObserved` event hands over counts as such only once the consumer reads it.
    entry.startsWhereConsumed()
    channel.countsHandOver(of: entry)
    let subscription = list.subscribeReplaying(entry, endsWithToken: true)
    channel.attach(subscription) { [weak self] in
      let removed = self?.streams.withLock { $0.remove(id) }
      _ = removed
    }
    streams.withLock { registry in
      registry.finishers[id] = { channel.finish() }
      registry.passers[id] = { done in channel.afterPassing(done) }
    }
    // An `unregisterAll()` that ran between `subscribe` and the line above ended the
    // registration but could not see the channel: finish it here instead.
    if subscription.isCancelled { channel.finish() }
    // The consumer reads through `AsyncStream(unfolding:)`, whose iterator asks the channel
    // for each element; releasing the stream releases the consumer, which ends the
    // registration.
    let consumer = ValueConsumer(channel)
    let stream = AsyncStream<Payload> { await consumer.channel.next() }
    return (stream, channel)
  }

  /// Finishes every live stream, outside the lock.
  func finishStreams() {
    guard let streams = lazyStreams.existing else { return }
    let live = streams.withLock { registry in
      defer { registry = StreamRegistry(nextID: registry.nextID) }
      return registry
    }
    for finish in live.finishers.values { finish() }
  }
}

extension Backlog {
  /// The `AsyncStream` buffer that keeps what this backlog keeps.
  func bufferingPolicy<Payload>(of _: Payload.Type)
    -> AsyncStream<Payload>.Continuation
    .BufferingPolicy
  {
    switch policy {
    case .unbounded: .unbounded
    case .dropOldest(let limit): .bufferingNewest(limit)
    case .dropNewest(let limit): .bufferingOldest(limit)
    }
  }
}
