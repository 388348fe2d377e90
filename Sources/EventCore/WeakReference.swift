/// A zeroing weak reference stored as a value, for `let` properties of `Sendable` types.
///
/// Swift 6.0 to 6.2.0 reject `weak let` (SE-0481 allows it from Swift 6.2.3), and a `weak var`
/// cannot be a stored property of a `Sendable` class; a `let` of this struct is both. The runtime
/// makes every load of a weak reference atomic, so sharing one across threads is sound.
@usableFromInline package struct WeakReference<Object: AnyObject> {
  // Read through a getter: reading the stored property of a `let` copies the whole struct first,
  // which takes and drops a weak reference (two more runtime calls on the object's side table)
  // around the load.
  // `Optional<Object>`, not `Object?`, which would be set to `nil` first by an implicit initial
  // value and then assigned: two runtime calls in `init` instead of one.
  // swift-format-ignore: UseShorthandTypeNames
  @usableFromInline weak var _object: Optional<Object>

  @inlinable package var object: Object? { _object }

  @inlinable package init(_ object: Object?) {
    self._object = object
  }
}

extension WeakReference: Sendable where Object: Sendable {}
