/// The one check, shared by every module that holds observers weakly, that an observer is a
/// class instance rather than a value.
///
/// A value cannot be held weakly. Converted to `AnyObject` (`point as AnyObject`), it becomes a
/// new box (`__SwiftValue`) on every conversion: registered, the box dies at once, the handler is
/// never called, and `unregister(point as AnyObject)` makes another box that matches nothing. So
/// registration stops the program with a message that names the mistake, instead of registering
/// something dead.
@usableFromInline package enum ObserverObject {
  /// Stops the program if `observer` is a value boxed as `AnyObject`.
  ///
  /// One comparison of the object's class with the box's (cached once per process), so every
  /// register form can afford it; a class instance, `Sendable` or not, always passes.
  @inlinable @inline(__always)
  package static func refuseBoxedValue(_ observer: AnyObject, in call: StaticString) {
    if isBoxedValue(observer) { boxedValue(observer, in: call) }
  }

  /// Whether `object` is the box Swift makes of a value converted to `AnyObject`.
  @inlinable @inline(__always)
  package static func isBoxedValue(_ object: AnyObject) -> Bool {
    ObjectIdentifier(type(of: object)) == boxClass
  }

  /// The class of the box `value as AnyObject` makes of a non-class value: `__SwiftValue`, a
  /// private runtime class, so it is found by boxing a value once rather than by name.
  @usableFromInline package static let boxClass = ObjectIdentifier(type(of: Probe() as AnyObject))

  /// A value of no bridged type (a `String` would become an `NSString`, not the box).
  private struct Probe {}

  /// Stops the program for a value boxed as `AnyObject`, naming the boxed type where the
  /// runtime shows it (a `Mirror` of the box on Linux).
  @usableFromInline package static func boxedValue(_ box: AnyObject, in call: StaticString)
    -> Never
  {
    let boxed = Mirror(reflecting: box).children.first.map { "\(type(of: $0.value))" }
    // `fatalError` rather than `preconditionFailure`, which drops its message in optimized
    // builds: the message is the point.
    fatalError(
      "\(call): \(boxed ?? "a value") converted to AnyObject is not an observer: each "
        + "conversion makes a new box, which dies at once, so it would never be called and "
        + "unregister could not find it; only class instances can be observers (they are held "
        + "weakly)")
  }

  /// Stops the program for a value-type observer, naming its type.
  @usableFromInline
  package static func valueType(_ type: Any.Type, in call: StaticString) -> Never {
    fatalError(
      "\(call): \(type) is a value type; only class instances can be observers (they are "
        + "held weakly)")
  }
}
