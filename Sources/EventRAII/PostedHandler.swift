import Foundation

/// A handler of `Notification` called as a handler of ``PostedNotification``, the payload of a
/// channel's lists, without a closure around it.
///
/// A closure around it (`{ handler($0.notification) }`) captures a function value, two words,
/// which Swift keeps in a context of its own: an allocation per observation. So the handler is
/// reinterpreted instead. Why that is sound:
/// - `PostedNotification` is a struct whose one stored property is a `Notification`, so Swift
///   lays it out as that property (same size, alignment and stride) and lowers it for a call as
///   it lowers the property: a function of either takes its argument alike, in registers or
///   through a pointer.
/// - The two function types differ in that parameter only; both are thick `@Sendable` functions
///   (a function pointer and a context), so a value of one is a value of the other, bit for
///   bit, and owns the same context.
/// - Each is reinterpreted as a whole struct storing the function at its own concrete type, as
///   `IsolatedHandler` does, so that no reabstraction thunk enters between a post and the
///   handler.
///
/// `PostedHandlerTests` checks the layout and calls a reinterpreted handler with notifications
/// that carry a name, an object and a `userInfo`, which must arrive intact and be released.
enum PostedHandler {
  /// `handler`, as a handler of ``PostedNotification``.
  static func callable(
    _ handler: @escaping @Sendable (Notification) -> Void
  ) -> @Sendable (PostedNotification) -> Void {
    unsafeBitCast(Plain(body: handler), to: Posted.self).body
  }

  private struct Plain {
    let body: @Sendable (Notification) -> Void
  }

  private struct Posted {
    let body: @Sendable (PostedNotification) -> Void
  }
}
