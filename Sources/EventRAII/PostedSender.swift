import Foundation

/// The sender a notification was posted with, as the object an `object:` filter compares by
/// identity: found once per post, never per observer.
enum PostedSender {
  /// The posted object if it is a class instance; `nil` for no object or a value, which no
  /// filter can match (a filter holds an object, and a value converted to `AnyObject` is a new
  /// box every time).
  ///
  /// Not `notification.object as AnyObject`: that bridging asks the runtime for conformances on
  /// every call, and boxes values.
  static func object(of notification: Notification) -> AnyObject? {
    guard let object = notification.object else { return nil }
    // Passing the `Any` to a generic parameter opens it (SE-0352): `T` is the dynamic type.
    if let instance = classInstance(object) { return instance }
    // Rare: a class instance inside an existential inside the `Any` (generic code that put an
    // `AnyObject` into an `Any`), whose opened type is the existential, not the class.
    return type(of: object) is AnyClass ? object as AnyObject : nil
  }

  /// `value` as an object when its static type is a class.
  ///
  /// Why the bit cast is sound:
  /// - it runs only when `T` is a class type (`T.self is AnyClass`), whose values are one strong
  ///   reference, the same representation as `AnyObject` (`unsafeBitCast` also checks that the
  ///   sizes match);
  /// - `unsafeBitCast` copies `value`, retaining it, so the result owns its reference, and
  ///   `value`, borrowed from the caller's `Any`, keeps its own.
  private static func classInstance<T>(_ value: T) -> AnyObject? {
    guard T.self is AnyClass else { return nil }
    return unsafeBitCast(value, to: AnyObject.self)
  }
}
