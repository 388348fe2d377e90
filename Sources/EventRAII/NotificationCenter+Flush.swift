import EventCore
public import Foundation

extension NotificationCenter {
  /// Waits until every delivery of the notifications named `name` posted before the call has
  /// run, to the observations this module made: `.queue(q)`, `.mainActor` and actor-owner
  /// deliveries included.
  ///
  /// The way for a test, or a shutdown, to wait for deliveries that `post` does not wait for,
  /// without sleeping or polling:
  ///
  /// ```swift
  /// let center = NotificationCenter()
  /// let didSave = Notification.Name("DidSave")
  /// let saves = DispatchQueue(label: "saves")
  /// let token = center.observe(didSave, delivery: .queue(saves)) { _ in print("saved") }
  /// center.post(name: didSave, object: nil)
  /// await center.flush(didSave)  // "saved" is printed
  /// token.cancel()
  /// ```
  ///
  /// The same rules as `Event.flush()`: notifications posted after the call are not waited for,
  /// not even those posted meanwhile by the handlers it waits for; a synchronous handler has
  /// run when its `post` returned; a post still running on another thread when `flush` is
  /// called is not one made before it. Observations of every name (`observe(nil)`) are waited
  /// for too, since they receive `name`'s notifications; a `nil` name waits for every
  /// observation of the center. Observations of typed messages (`observe(of:for:_:)`), which
  /// Foundation delivers itself, are not waited for.
  ///
  /// It never blocks a thread: it suspends. So it may be called from the main actor while the
  /// deliveries it waits for need the main actor, and they run while it waits. Deliveries to a
  /// `.queue(q)` observation are waited for by a block enqueued on `q` behind them (on a
  /// concurrent queue, until the earlier blocks have started). A handler that never returns
  /// keeps `flush` waiting, and main-actor deliveries run only while something drains the main
  /// queue (an async `main`, `swift test`, a run loop).
  ///
  /// Adds nothing to the cost of a post. Thread-safe.
  ///
  /// - Parameter name: The notifications whose deliveries to wait for; `nil` for every one.
  /// - Complexity: O(*n*) in the number of observations, plus the deliveries waited for.
  public func flush(_ name: Notification.Name?) async {
    let lists = ChannelRegistry.shared.channels(of: self, reachedBy: name).flatMap(\.lists)
    // One list after another: each waits for the deliveries of posts made before its own
    // flush, which include every post made before this call.
    for list in lists { await list.flush() }
  }
}
