/// Turns a handler that knows its isolation (`@isolated(any)`, SE-0431) into one the delivery
/// path can call synchronously.
///
/// Swift calls a synchronous `@isolated(any)` function only with `await` (the call may have to
/// hop), and forbids converting it to a plain function type, since a plain call would skip the
/// hop. The delivery path makes the hop itself: an entry given `function.isolation` runs its
/// handler only on that actor (``Delivery/honouring(_:)``: inline when the post is already on
/// the main actor, otherwise scheduled there), and a nonisolated handler may run anywhere. So
/// the plain call is the call Swift would make after the hop. Why the reinterpretation is sound:
/// - an `@isolated(any)` function value has the representation of the plain function type with
///   the same parameters and result (a function pointer and a context; the isolation lives in
///   the context, `MemoryLayout` of both is the same), and its function pointer takes the same
///   arguments; the isolation is only read, never passed, by a caller;
/// - every value converted here, or by the `ObserverEntry` initializers that take an
///   `@isolated(any)` handler (which convert at the entry's own generic types, so that no
///   reabstraction thunk sits between a post and the handler), is stored in an entry together
///   with its isolation, and only that entry calls it, on that isolation;
/// - `@Sendable` handlers stay `@Sendable` and the others do not become so: no `Sendable`
///   guarantee is invented.
@usableFromInline package enum IsolatedHandler {
  /// A handler taking a parameter pack, callable without `await` on its isolation.
  ///
  /// A variadic function type cannot be reinterpreted directly (the compiler cannot fix its
  /// calling convention across contexts), so it is reinterpreted inside a struct: `Isolated` and
  /// `Plain` below differ only in the isolation of their one stored function, so their layouts
  /// agree, and the field of each is stored at the same, maximal, abstraction.
  @inlinable
  package static func callable<each Element>(
    _ function: @escaping @isolated(any) (repeat each Element) -> Void
  ) -> (repeat each Element) -> Void {
    unsafeBitCast(Isolated(function: function), to: Plain<repeat each Element>.self).function
  }

  @usableFromInline struct Isolated<each Element> {
    @usableFromInline let function: @isolated(any) (repeat each Element) -> Void

    @inlinable init(function: @escaping @isolated(any) (repeat each Element) -> Void) {
      self.function = function
    }
  }

  @usableFromInline struct Plain<each Element> {
    @usableFromInline let function: (repeat each Element) -> Void
  }
}
