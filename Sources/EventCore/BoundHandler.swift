/// A handler of an observer and a payload, stored with the observer's type erased to
/// `AnyObject`, so that an entry holds any observer's handler in one field without a wrapper
/// closure that casts the observer back (a context allocated per registration).
///
/// Why the erasure is sound:
/// - a type parameter constrained to `AnyObject` (and no protocol with a witness table:
///   `Sendable` is a marker) is represented, stored and passed as one strong reference, as
///   `AnyObject` is; so a function value whose first parameter is `Observer`, stored in a field
///   declared at that type parameter, has the representation of one whose first parameter is
///   `AnyObject`, at the same abstraction (the payload's stays that of a type parameter);
/// - the function only ever receives the object it was registered with: an entry calls it with
///   its own observer, loaded from the weak reference set from that `Observer` instance, so the
///   callee is handed an instance of its own parameter's type, as the cast of a wrapper closure
///   (`unsafeDowncast`) would have assumed too.
///
/// `IsolatedHandlerTests` checks the layout and a call through the erased type, and the library
/// checks the same once per process with the rest of its `@isolated(any)` assumptions
/// (`IsolatedHandler.verifyLayout()`).
@usableFromInline package struct BoundHandler<Observer: AnyObject, Payload> {
  @usableFromInline package let body: (Observer, Payload) -> Void

  @inlinable package init(body: @escaping (Observer, Payload) -> Void) {
    self.body = body
  }

  /// `body` with its observer's type erased; see ``BoundHandler``.
  @inlinable package var erased: (AnyObject, Payload) -> Void {
    unsafeBitCast(self, to: BoundHandler<AnyObject, Payload>.self).body
  }
}
