public import EventCore

extension NotificationReceiver {
  /// Calls `handler` with the name of every arrival the receiver counts: the hook for a status
  /// line that shows what has arrived so far.
  ///
  /// ```swift
  /// let progress = receiver.onArrival { name in
  ///   print("\(name) arrived; \(receiver.remaining(name)) more needed")
  /// }
  /// ```
  ///
  /// It runs for each arrival of a name in the set: those beyond a conditioner's `minCount`
  /// included, and each ``SharedConditioners/arrive(_:)`` of a shared conditioner the receiver
  /// holds. It does not run for a name not in the set, for ``check(_:)`` of a shared name
  /// (which counts nothing), for arrivals while ``isEnabled`` is `false`, or for ignores (see
  /// ``onIgnored(_:fileID:line:)``).
  ///
  /// It runs after the arrival is counted and the set evaluated, so ``remaining(_:)`` reads the
  /// count with this arrival in it, and before the ``onVerified(_:fileID:line:)`` handlers of a
  /// round the arrival completes (it then sees the next round, re-armed). Handlers run in the order
  /// they were added, on the arriving thread, with no lock held: a handler may call back into the
  /// receiver.
  ///
  /// - Parameters:
  ///   - handler: The code to run, given the name that arrived.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A subscription that keeps the handler registered: cancel or release it to stop.
  public func onArrival(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (String) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let entry = ObserverEntry(delivery: .synchronous, isolatedHandler: handler)
    entry.site = RegistrationSite(.closure, fileID: fileID, line: line)
    return arrivalHandlers.subscribe(entry, endsWithToken: true)
  }
}
