public import EventCore
public import Foundation
import Synchronization

extension NotificationCenter {
  /// Observes the next matching notification only; the observation then ends by itself.
  ///
  /// ```swift
  /// NotificationCenter.default.observeOnce(.init("DidFinishLaunching")) { _ in
  ///   print("launched")
  /// }
  /// ```
  ///
  /// The same rules as EventTyped's `Event.subscribeOnce(_:)`: the handler runs exactly once,
  /// even when many threads post at once; a post made inside the handler does not run it
  /// again; the observation ends (its token reads `isCancelled`) just before the handler runs.
  /// A notification from another sender than `object` does not count. Releasing the token does
  /// not end the observation, so you may drop it; cancel it to call the handler off before a
  /// notification arrives.
  ///
  /// ### Threading
  /// Thread-safe. The handler runs as `delivery` says, like ``observe(_:object:delivery:_:)``.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - delivery: Where and when the handler runs. Defaults to `.synchronous`.
  ///   - handler: The closure to call with the first matching notification.
  /// - Returns: A token whose `cancel()` keeps the handler from running, if it has not yet.
  @discardableResult
  public func observeOnce(
    _ name: Notification.Name?, object: AnyObject? = nil, delivery: Delivery = .synchronous,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Notification) -> Void
  ) -> Subscription {
    let lease = ChannelRegistry.shared.lease(
      center: self, name: name, sender: SenderFilter(object))
    let once = OnceObservation()
    // Called only on `handler.isolation`: why this is sound is in `IsolatedHandler`.
    let call = unsafeBitCast(handler, to: (@Sendable (Notification) -> Void).self)
    let entry = ObserverEntry<PostedNotification>(
      delivery: delivery, isolation: handler.isolation
    ) { posted in
      guard lease.accepts(posted.notification), once.claim() else { return }
      call(posted.notification)
    }
    let token = lease.channel.observers.subscribe(entry, endsWithToken: false)
    once.attach(token)
    return token
  }
}

/// The single run of an `observeOnce` registration.
///
/// The claim is made after the sender filter (a notification from another sender must not use
/// it up), so it cannot be the entry's own once-bit; the winner ends the registration through
/// its token before the handler runs. A notification may win before the token is attached:
/// then attaching ends it.
private final class OnceObservation: Sendable {
  private let fired = Atomic<Bool>(false)
  /// The registration's token, or `nil` once it has been handed over to be ended.
  private let token = Lock<(token: Subscription?, ended: Bool)>((nil, false))

  /// Whether this call is the one: true exactly once. Ends the registration.
  func claim() -> Bool {
    guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return false }
    let attached = token.withLock { state -> Subscription? in
      state.ended = true
      defer { state.token = nil }
      return state.token
    }
    attached?.cancel()
    return true
  }

  /// Keeps `subscription` to end the registration when it fires; ends it now if it already did.
  func attach(_ subscription: Subscription) {
    let endsNow = token.withLock { state -> Bool in
      guard !state.ended else { return true }
      state.token = subscription
      return false
    }
    if endsNow { subscription.cancel() }
  }
}
