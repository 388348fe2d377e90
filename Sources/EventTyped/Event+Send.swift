import EventCore

extension Event {
  /// Posts `payload`, then waits until every call the post queued has run, been dropped, or
  /// ended with its registration: back-pressure for a producer faster than its consumers.
  ///
  /// ```swift
  /// for frame in frames {
  ///   await rendered.send(frame)  // never more than one frame waits per registration
  /// }
  /// ```
  ///
  /// A producer that awaits each send keeps every backlog at one payload per registration, and
  /// its memory flat, however slow the consumer: queued, main-actor, actor and async-handler
  /// registrations alike. Synchronous handlers run on the caller's isolation before it
  /// suspends (main-actor handlers inline when the caller is on the main actor), as `post`
  /// runs them.
  ///
  /// A send made from an async handler of this event does not wait for that handler's own
  /// registration, whose next call cannot start before the handler returns. Cancelling the
  /// task ends the wait, not the deliveries. Like ``flush()``, the wait covers the calls
  /// queued before it, so under other producers it may also wait for theirs; it never blocks
  /// a thread. A `values` iterator is not waited for: its consumer may be the task that sends.
  ///
  /// - Parameters:
  ///   - payload: The value handed to every handler.
  ///   - isolation: The caller's actor, where the synchronous handlers run; leave the default.
  /// - Returns: What ``post(_:)-(Payload)`` returns: the registrations reached.
  /// - Complexity: The post's O(*n*), plus one marker per registration that runs later and per
  ///   stream: the wait itself costs nothing while it suspends.
  @discardableResult
  public func send(_ payload: Payload, isolation: isolated (any Actor)? = #isolation) async -> Int {
    let reached = post(payload)
    await afterQueuedCalls()
    return reached
  }

  /// Posts a payload of several elements, then waits as the one-payload `send` does.
  ///
  /// ```swift
  /// let progress = Event<(String, Double)>(delivery: .mainActor)
  /// await progress.send("report.pdf", 0.5)
  /// ```
  ///
  /// - Parameters:
  ///   - element: The payload's elements, in order.
  ///   - isolation: The caller's actor, where the synchronous handlers run; leave the default.
  /// - Returns: The registrations reached.
  @discardableResult
  public func send<each Element>(
    _ element: repeat each Element, isolation: isolated (any Actor)? = #isolation
  ) async -> Int where Payload == (repeat each Element) {
    let reached = post((repeat each element))
    await afterQueuedCalls()
    return reached
  }

  /// ``flush()``'s wait, without the queue of the async handler of this event that the
  /// calling task runs, if any, and ended early by the task's cancellation.
  func afterQueuedCalls() async {
    let own = RunningAsyncHandler.current.flatMap {
      $0.event == ObjectIdentifier(self) ? $0.queue : nil
    }
    let markers =
      lazyStreams.existing?.withLock { registry in
        registry.flushers.compactMap { $0.key == own ? nil : $0.value }
          + registry.passers.values
      } ?? []
    await list.flush(also: markers, endingOnCancel: true)
  }
}

/// The async handler whose loop the current task runs: its event and the id of its queue.
struct RunningAsyncHandler: Sendable {
  let event: ObjectIdentifier
  let queue: Int

  @TaskLocal static var current: RunningAsyncHandler?
}
