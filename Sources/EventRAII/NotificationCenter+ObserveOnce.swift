public import EventCore
public import Foundation

extension NotificationCenter {
  /// Observes the next matching notification only; the observation then ends by itself.
  ///
  /// ```swift
  /// NotificationCenter.default.observeOnce(.init("DidFinishLaunching")) { _ in
  ///   print("launched")
  /// }
  /// ```
  ///
  /// The same rules as EventTyped's `Event.subscribeOnce`: the handler runs exactly once,
  /// even when many threads post at once; a post made inside the handler does not run it
  /// again; the observation ends (its token reads `isCancelled`) just before the handler runs.
  /// A notification from another sender than `object` does not count. Releasing the token does
  /// not end the observation, so you may drop it; cancel it to call the handler off before a
  /// notification arrives.
  ///
  /// ### Threading
  /// Thread-safe. The handler runs as `delivery` says, like
  /// ``observe(_:object:delivery:backlog:_:fileID:line:)``.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - delivery: Where and when the handler runs. Defaults to `.synchronous`.
  ///   - handler: The closure to call with the first matching notification.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token whose `cancel()` keeps the handler from running, if it has not yet.
  @discardableResult
  public func observeOnce(
    _ name: Notification.Name?, object: AnyObject? = nil, delivery: Delivery = .synchronous,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Notification) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let (lease, entry) = closureRegistration(
      name, object: object, delivery: delivery, backlog: .unbounded, handler)
    entry.site = RegistrationSite(.once, fileID: fileID, line: line)
    // The sender filter is applied before the entry is reached (it sits in its sender's
    // group), so a notification from another sender never uses the single run up.
    entry.runOnce()
    return lease.subscribe(entry, endsWithToken: false)
  }
}
