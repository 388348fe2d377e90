/// A zeroing weak reference to an object.
///
/// `@unchecked Sendable` without a lock: `object` is written once, in `init`, and the Swift
/// runtime makes every load of a weak reference atomic. Loading it under a lock is what this type
/// exists to avoid: a load yields a strong reference, and dropping that reference can run the
/// object's `deinit`, which must never happen while one of our locks is held.
@usableFromInline package final class WeakBox: @unchecked Sendable {
  // Not `AnyObject?`: see `WeakReference._object`.
  // swift-format-ignore: UseShorthandTypeNames
  package private(set) weak var object: Optional<AnyObject>

  /// Identity of the object at the time it was boxed, for keyed lookups.
  @usableFromInline package let identifier: ObjectIdentifier

  @usableFromInline package init(_ object: AnyObject) {
    self.object = object
    self.identifier = ObjectIdentifier(object)
  }

  /// Whether the object is still alive. Checking retains and releases it, so call this outside
  /// any lock.
  @usableFromInline package var isAlive: Bool { object != nil }
}
