public import EventCore

extension Broadcaster {
  /// Calls `handler` with each report of calls this broadcaster's bounded backlogs dropped,
  /// with where the registration that lost them was written.
  ///
  /// ```swift
  /// let positions = Broadcaster(backlog: .dropOldest(1))
  /// // "3 dropped for the registration at App/Screen.swift:42"
  /// let drops = positions.onDrop { drop in print(drop) }
  /// ```
  ///
  /// Reports are coalesced per registration, so a burst costs at most two: the first drop after
  /// the registration's last call is reported at once, with a `count` of 1; the drops after it
  /// add up into one report, made before that registration's next call or when it ends. Every
  /// dropped call is counted once. Calls that a cancel or an unregister discards are not drops.
  ///
  /// While no handler is registered, the first drop of each registration is printed to
  /// standard error instead, with its `file:line`, once; later ones are not.
  ///
  /// `handler` runs on the thread that reports, outside every lock: the notifying thread for
  /// the first drop of a burst, before `notify` returns; the registration's queue or actor for
  /// the report made before its next call. Handlers run in the order they were added. A
  /// handler may notify, register and unregister.
  ///
  /// - Parameter handler: Called with each report.
  /// - Returns: A subscription that keeps the handler registered: cancel or release it to
  ///   stop. The broadcaster does not keep it alive.
  public func onDrop(_ handler: @escaping @Sendable (Drop) -> Void) -> Subscription {
    dropHandlers.subscribe(
      ObserverEntry(delivery: .synchronous, handler: handler), endsWithToken: true)
  }

  /// Sends the standard-error lines of this broadcaster's drops and backlog warnings to `write`
  /// instead, so that tests can read them.
  package func writeFlowWarnings(to write: @escaping @Sendable (String) -> Void) {
    flow.writeWarnings(to: write)
  }
}
