public import EventCore
public import Foundation

extension NotificationCenter {
  /// Calls `handler` with each report of notifications that this center's bounded observations
  /// dropped, with where the observation that lost them was written.
  ///
  /// An observation whose handler runs later (a `.queue(q)` or `.mainActor` delivery posted to
  /// from elsewhere, an actor owner, a handler written in actor-isolated code) has a backlog:
  /// the calls queued for it that have not run yet. Its `backlog:` parameter bounds it:
  ///
  /// ```swift
  /// let center = NotificationCenter()
  /// let tick = Notification.Name("Tick")
  /// let display = DispatchQueue(label: "display")
  /// // "3 dropped for the registration at App/Clock.swift:42"
  /// let drops = center.onDrop { drop in print(drop) }
  /// let token = center.observe(tick, delivery: .queue(display), backlog: .dropOldest(1)) { _ in }
  /// ```
  ///
  /// Reports are coalesced per observation, so a burst costs at most two: the first drop after
  /// the observation's last call is reported at once, with a `count` of 1; the drops after it
  /// add up into one report, made before that observation's next call or when it ends. Every
  /// dropped notification is counted once. Calls that a cancel discards are not drops.
  ///
  /// While no handler is registered on the center, the first drop of each observation is
  /// printed to standard error instead, with its `file:line`, once; later ones are not.
  ///
  /// `handler` runs on the thread that reports, outside every lock: the posting thread for the
  /// first drop of a burst, before `post` returns; the observation's queue or actor for the
  /// report made before its next call. Handlers run in the order they were added, and may post
  /// and observe. Drops are never posted to the center as notifications, so an observation of
  /// every name (`nil`) does not see them.
  ///
  /// - Parameter handler: Called with each report.
  /// - Returns: A subscription that keeps the handler registered: cancel or release it to
  ///   stop. The center does not keep it alive.
  public func onDrop(_ handler: @escaping @Sendable (Drop) -> Void) -> Subscription {
    CenterDropHandlers.shared.handlers(of: self).subscribe(
      ObserverEntry(delivery: .synchronous, handler: handler), endsWithToken: true)
  }

  /// Gives `entry`, an observation of `name` on this center, the backlog `backlog` with its
  /// drops reported to this center's ``onDrop(_:)`` handlers. An unbounded one keeps the
  /// default path (no mailbox until its first queued call, named by the backlog warning).
  // Inlined: most registrations are unbounded, and pass here without a call.
  @inline(__always) func bound(
    _ entry: ObserverEntry<PostedNotification>, by backlog: Backlog, name: Notification.Name?
  ) {
    guard !backlog.isUnbounded else { return }
    bounded(entry, by: backlog, name: name)
  }

  private func bounded(
    _ entry: ObserverEntry<PostedNotification>, by backlog: Backlog, name: Notification.Name?
  ) {
    let channel: @Sendable () -> String = { NotificationChannel.describe(name) }
    let flow = FlowControl(backlog: backlog, channel: channel)
    // Weakly: the flow lives as long as the observation, which must not keep its center alive.
    let center = WeakReference(self)
    flow.deliverDrops { drop in
      guard let center = center.object else { return false }
      return CenterDropHandlers.shared.post(drop, for: center)
    }
    entry.useFlow(flow, channel: channel)
  }
}
