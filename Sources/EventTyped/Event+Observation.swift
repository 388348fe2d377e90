public import EventCore

extension Event {
  /// Whether any live registration exists.
  ///
  /// An observer's death counts once the event learns of it: a post, a count
  /// (``observerCount``) or a registration purges registrations whose observer or owner is
  /// gone. Reading it takes no lock.
  ///
  /// ```swift
  /// if !Downloads.progress.isObserved { return }  // nobody shows progress: skip the work
  /// ```
  public var isObserved: Bool { list.isObserved }

  /// Calls `handler` with `true` when the event gains its first live registration and with
  /// `false` when it loses its last: the hook that starts upstream work when someone starts
  /// listening and stops it when the last one leaves.
  ///
  /// ```swift
  /// let hook = Sensors.temperature.onObservedChange { observed in
  ///   observed ? sensor.start() : sensor.stop()
  /// }
  /// ```
  ///
  /// The handler is not itself a registration (it does not make the event observed), and it is
  /// not called when it is installed: only for the changes that follow. Changes are coalesced:
  /// the handler learns the net state, `true`, `false`, `true`, …, never twice in a row with the
  /// same value, and changes that cancel out before it is told (true, then false again, while
  /// it runs for another change) reach it not at all; once the event is quiet, the value it was
  /// told last is ``isObserved``. It runs outside every lock, one call at a time, on the thread
  /// whose registration or cancellation made the change; a change made while the handlers are
  /// being told of an earlier one reaches them from a dispatch thread once those calls return.
  /// So a registration never waits for the handler of another thread's change, and never
  /// delivers more than its own.
  ///
  /// - Parameter handler: Called with the new value of ``isObserved``.
  /// - Returns: The token that ends the handler: once `cancel()` returns, no call of it starts.
  public func onObservedChange(_ handler: @escaping @Sendable (Bool) -> Void) -> Subscription {
    list.onObservedChange(handler)
  }
}
