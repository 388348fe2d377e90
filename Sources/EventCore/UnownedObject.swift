/// ``UnownedReference`` for the other modules of the package: a reference that keeps an
/// object's memory but not the object, and hands out a strong reference only while the object
/// lives, without the side table a `weak` reference gives the object.
///
/// The argument for its soundness, and the tests that check it, are those of
/// ``UnownedReference``, which this only forwards to. Only for native Swift classes.
package struct UnownedObject<Object: AnyObject>: ~Copyable, Sendable {
  private let reference: UnownedReference<Object>

  /// Refers to `object`.
  package init(_ object: Object) {
    reference = UnownedReference(object)
  }

  /// The object, strongly, if it has not begun its deinitialization; `nil` otherwise.
  package var object: Object? { reference.object }
}
