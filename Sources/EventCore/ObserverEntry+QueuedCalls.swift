import Synchronization

extension ObserverEntry {
  /// Counts one more call queued on the main queue for this registration by an owner that
  /// queues its calls itself (EventBroadcast): the count that ``flushQueue`` and a post's
  /// main-actor decision read as "calls queued there and not yet run".
  ///
  /// - Returns: The calls waiting, this one included.
  @discardableResult
  package func queuedCallAdded() -> Int {
    queuedCalls.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
  }

  /// Counts one call counted by ``queuedCallAdded()`` as run.
  package func queuedCallRan() {
    queuedCalls.wrappingSubtract(1, ordering: .acquiringAndReleasing)
  }

  /// Whether a call counted by ``queuedCallAdded()`` has not run yet.
  package var hasQueuedCalls: Bool {
    queuedCalls.load(ordering: .acquiring) != 0
  }
}
