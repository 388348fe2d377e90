import EventCore
import Foundation

/// Counts a notification center's deliveries as arrivals, for ``NotificationReceiver`` and
/// ``SharedConditioners``.
enum ArrivalObservation {
  /// Calls `arrive` for each notification named `name` that `center` delivers, from `object`
  /// when one is given, until the returned subscription is cancelled or released.
  ///
  /// `object` is held weakly and matched by identity: once it is gone nothing matches, not even
  /// a new object at the same address. The center's own filter is not used for it, since that
  /// would compare addresses.
  static func observe(
    _ name: Notification.Name, center: NotificationCenter, object: AnyObject?,
    _ arrive: @escaping @Sendable () -> Void
  ) -> Subscription {
    let sender = object.map(WeakBox.init)
    // Each arrival is an invocation in flight of the subscription's liveness, so a post in
    // progress on another thread when the subscription is cancelled does not count after
    // `cancel()` returns.
    let liveness = Liveness()
    let token = center.addObserver(forName: name, object: nil, queue: nil) { notification in
      if let sender {
        guard let expected = sender.object, let posted = notification.object,
          (posted as AnyObject) === expected
        else { return }
      }
      liveness.invokeIfLive(arrive)
    }
    let registration = CenterRegistration(center: center, token: token)
    return Subscription(liveness: liveness) { registration.end() }
  }
}

/// A center observer token, handed back to the center once.
///
/// `@unchecked Sendable`: both properties are immutable, and the token is only passed to
/// `NotificationCenter.removeObserver(_:)`, which may be called from any thread.
private final class CenterRegistration: @unchecked Sendable {
  private let center: NotificationCenter
  private let token: any NSObjectProtocol

  init(center: NotificationCenter, token: any NSObjectProtocol) {
    self.center = center
    self.token = token
  }

  func end() {
    center.removeObserver(token)
  }
}
