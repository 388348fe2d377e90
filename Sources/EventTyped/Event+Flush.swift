import EventCore

extension Event {
  /// Waits until every delivery of the posts made before the call has run: queued,
  /// main-actor, actor and async-handler calls included.
  ///
  /// The way for a test, or a shutdown, to wait for deliveries that `post` does not wait for,
  /// without sleeping or polling:
  ///
  /// ```swift
  /// let saved = Event<String>(delivery: .queue(DispatchQueue(label: "saves")))
  /// saved.post("draft")
  /// await saved.flush()  // the handlers of "draft" have run
  /// ```
  ///
  /// Posts made after the call are not waited for, not even those made meanwhile by the
  /// handlers it waits for; nor are posts that a closed ``Gate`` still holds (they count as
  /// posted when it releases them). A synchronous handler has run when its `post` returned, so
  /// there is nothing to wait for on its account; a post still running on another thread when
  /// `flush` is called is not one made before it.
  ///
  /// It never blocks a thread: it suspends. So it may be called from the main actor while the
  /// deliveries it waits for need the main actor, and they run while it waits. Deliveries to a
  /// `.queue(q)` registration are waited for by a block enqueued on `q` behind them, which waits
  /// for them all on a serial queue; on a concurrent queue it waits only until the earlier
  /// blocks have started. Whatever the wait, it is for the deliveries themselves: a handler that
  /// never returns keeps `flush` waiting, and deliveries to the main actor run only while
  /// something drains the main queue (an async `main`, `swift test`, a run loop).
  ///
  /// Adds nothing to the cost of a post. Thread-safe.
  ///
  /// - Complexity: O(*n*) in the number of registrations, plus the deliveries waited for.
  public func flush() async {
    let markers = lazyStreams.existing?.withLock { Array($0.flushers.values) } ?? []
    await list.flush(also: markers)
  }
}
