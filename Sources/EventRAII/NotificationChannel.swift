import EventCore
import Foundation

/// The registry key of a channel: one center and one name, where a `nil` name (every
/// notification) is a key of its own.
struct ChannelKey: Hashable, Sendable {
  let center: ObjectIdentifier
  let name: Notification.Name?
}

/// The observer token a center returned, kept to remove the registration later.
///
/// `@unchecked Sendable`: the token is an opaque object owned by the center; we never read or
/// call it, we only hand it back to `removeObserver(_:)`, which is thread-safe.
struct CenterRegistration: @unchecked Sendable {
  let token: any NSObjectProtocol
}

/// The ordered observers of one (center, name) pair, behind a single center registration.
///
/// The center calls its own observers in an order of its choosing (on Linux, Foundation keeps
/// them in a dictionary and calls them in hash order, which changes from run to run), so each
/// channel registers once and delivers to its ``ObserverList`` in registration order.
final class NotificationChannel: Sendable {
  let key: ChannelKey
  let observers = ObserverList<PostedNotification>()
  /// Weak, so that dropping a `NotificationCenter()` instance frees it even while tokens live.
  private weak let center: NotificationCenter?

  init(center: NotificationCenter, name: Notification.Name?) {
    self.key = ChannelKey(center: ObjectIdentifier(center), name: name)
    self.center = center
  }

  /// Whether this channel was made for `center`.
  ///
  /// Safe to call under a lock while the caller holds `center`: the weak load yields either
  /// `nil` (this channel's center died; `center` merely reuses its address) or `center` itself,
  /// whose release cannot be the last one, so no `deinit` runs here.
  func belongs(to center: NotificationCenter) -> Bool {
    self.center === center
  }

  /// Registers the channel with `center`; every notification of its name is posted to
  /// ``observers`` on the posting thread.
  ///
  /// The center holds the channel strongly through the block until the registration is removed
  /// or the center is deallocated.
  func register(with center: NotificationCenter) -> CenterRegistration {
    let deliver: @Sendable (Notification) -> Void = { notification in
      PublicationFence.shared.acquire()
      self.observers.post(PostedNotification(notification: notification))
    }
    PublicationFence.shared.release()
    let token = center.addObserver(forName: key.name, object: nil, queue: nil, using: deliver)
    return CenterRegistration(token: token)
  }

  /// Removes `registration` from the center, if the center still lives. Call it outside any lock.
  func unregister(_ registration: CenterRegistration) {
    center?.removeObserver(registration.token)
  }
}
