/// A zeroing weak reference stored as a value, for `let` properties of `Sendable` types.
///
/// Swift 6.0 to 6.2.0 reject `weak let` (SE-0481 allows it from Swift 6.2.3), and a `weak var`
/// cannot be a stored property of a `Sendable` class; a `let` of this struct is both. The runtime
/// makes every load of a weak reference atomic, so sharing one across threads is sound.
@usableFromInline package struct WeakReference<Object: AnyObject> {
  @usableFromInline package weak var object: Object?

  @inlinable package init(_ object: Object?) {
    self.object = object
  }
}

extension WeakReference: Sendable where Object: Sendable {}
