import Foundation

/// A notification on its way from the center's callback to the handlers, as a `Sendable` value.
///
/// `Notification` is not `Sendable` (its `object` and `userInfo` are `Any`), yet a `.queue` or
/// `.mainActor` delivery has to carry it to another thread. `@unchecked Sendable` is safe here for
/// the reason Foundation's own `addObserver(forName:object:queue:using:)` hands the same value to
/// another queue: the value is immutable once posted, every handler gets it as a read-only copy,
/// and the sender and `userInfo` it references are whatever the poster chose to share with every
/// observer of the center.
struct PostedNotification: @unchecked Sendable {
  let notification: Notification
}
