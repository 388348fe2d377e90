/// Turns a handler that knows its isolation (`@isolated(any)`, SE-0431) into one the delivery
/// path can call synchronously. Every reinterpretation of an `@isolated(any)` function in the
/// package is made here, and nowhere else.
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
/// - every value converted here is stored in an entry together with its isolation, and only
///   that entry calls it, on that isolation; debug builds check it before every call
///   (``assertIsolated(_:)``);
/// - `@Sendable` handlers stay `@Sendable` and the others do not become so: no `Sendable`
///   guarantee is invented.
///
/// SE-0431 does not document that representation, and the compiler's warning for the direct
/// conversion says it "will be an error in a future Swift language mode" (SE-0461 shows a future
/// where isolation is passed as an argument). The tests of this file check each assumption on
/// the toolchain that builds them (sizes, the isolation read back after a round trip, a call
/// made from inside its actor), so that a toolchain that breaks it fails them loudly; and since
/// a client's toolchain never runs them, the library checks the same once per process, before
/// the first reinterpretation (``layoutVerified``).
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
    requireVerifiedLayout()
    return unsafeBitCast(Isolated(function: function), to: Plain<repeat each Element>.self).function
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

  /// A `@Sendable` closure handler, callable without `await` on its isolation.
  ///
  /// Reinterpreted as a whole struct so that the closure keeps the abstraction of its stored
  /// field: reinterpreting the function value itself would pass it through `unsafeBitCast`'s
  /// generic, fully abstract form, and leave two reabstraction thunks in front of every call.
  /// Call it at the entry's own `Payload`, so that no thunk sits between a post and the handler.
  @inlinable
  package static func callable<Payload>(
    sendable handler: @escaping @isolated(any) @Sendable (Payload) -> Void
  ) -> @Sendable (Payload) -> Void {
    requireVerifiedLayout()
    return unsafeBitCast(IsolatedClosure(body: handler), to: PlainClosure<Payload>.self).body
  }

  @usableFromInline struct IsolatedClosure<Payload> {
    @usableFromInline let body: @isolated(any) @Sendable (Payload) -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (Payload) -> Void) {
      self.body = body
    }
  }

  @usableFromInline struct PlainClosure<Payload> {
    @usableFromInline let body: @Sendable (Payload) -> Void
  }

  /// A handler that receives an observer and a payload, callable without `await` on its
  /// isolation; reinterpreted inside a struct, as ``callable(sendable:)`` is, and for the same
  /// reason.
  @inlinable
  package static func callable<Observer, Payload>(
    observer handler: @escaping @isolated(any) (Observer, Payload) -> Void
  ) -> (Observer, Payload) -> Void {
    requireVerifiedLayout()
    return unsafeBitCast(
      IsolatedObserverHandler(body: handler), to: PlainObserverHandler<Observer, Payload>.self
    ).body
  }

  @usableFromInline struct IsolatedObserverHandler<Observer, Payload> {
    @usableFromInline let body: @isolated(any) (Observer, Payload) -> Void
    @inlinable init(body: @escaping @isolated(any) (Observer, Payload) -> Void) {
      self.body = body
    }
  }

  @usableFromInline struct PlainObserverHandler<Observer, Payload> {
    @usableFromInline let body: (Observer, Payload) -> Void
  }

  /// A handler that receives an observer and a payload, callable without `await` on its
  /// isolation, with the observer's type erased to `AnyObject`: the form an entry stores
  /// (`ObserverEntry.bound`), reached without a wrapper closure or a reabstraction thunk, each
  /// an allocation per registration.
  ///
  /// Reinterpreted inside a struct, as ``callable(sendable:)`` is; ``BoundHandler`` argues the
  /// observer's erasure.
  @inlinable
  package static func callable<Observer: AnyObject, Payload>(
    erasingObserver handler: @escaping @isolated(any) (Observer, Payload) -> Void
  ) -> (AnyObject, Payload) -> Void {
    requireVerifiedLayout()
    return unsafeBitCast(
      IsolatedBoundHandler(body: handler), to: BoundHandler<AnyObject, Payload>.self
    ).body
  }

  @usableFromInline struct IsolatedBoundHandler<Observer: AnyObject, Payload> {
    @usableFromInline let body: @isolated(any) (Observer, Payload) -> Void
    @inlinable init(body: @escaping @isolated(any) (Observer, Payload) -> Void) {
      self.body = body
    }
  }

  /// A throwing `@Sendable` closure handler, callable without `await` on its isolation;
  /// reinterpreted inside a struct, as ``callable(sendable:)`` is, and for the same reason. A
  /// throwing function has the representation of the non-throwing one plus the error it returns,
  /// which `@isolated(any)` does not change either.
  @inlinable
  package static func callable<Payload>(
    throwing handler: @escaping @isolated(any) @Sendable (Payload) throws -> Void
  ) -> @Sendable (Payload) throws -> Void {
    requireVerifiedLayout()
    return unsafeBitCast(
      IsolatedThrowingClosure(body: handler), to: PlainThrowingClosure<Payload>.self
    )
    .body
  }

  @usableFromInline struct IsolatedThrowingClosure<Payload> {
    @usableFromInline let body: @isolated(any) @Sendable (Payload) throws -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (Payload) throws -> Void) {
      self.body = body
    }
  }

  @usableFromInline struct PlainThrowingClosure<Payload> {
    @usableFromInline let body: @Sendable (Payload) throws -> Void
  }

  /// A throwing handler that receives an observer and a payload, callable without `await` on
  /// its isolation; see ``callable(throwing:)``.
  @inlinable
  package static func callable<Observer, Payload>(
    throwingObserver handler: @escaping @isolated(any) @Sendable (Observer, Payload) throws -> Void
  ) -> @Sendable (Observer, Payload) throws -> Void {
    requireVerifiedLayout()
    return unsafeBitCast(
      IsolatedThrowingObserverHandler(body: handler),
      to: PlainThrowingObserverHandler<Observer, Payload>.self
    ).body
  }

  @usableFromInline struct IsolatedThrowingObserverHandler<Observer, Payload> {
    @usableFromInline let body: @isolated(any) @Sendable (Observer, Payload) throws -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (Observer, Payload) throws -> Void) {
      self.body = body
    }
  }

  @usableFromInline struct PlainThrowingObserverHandler<Observer, Payload> {
    @usableFromInline let body: @Sendable (Observer, Payload) throws -> Void
  }

  /// Stops the program if the code about to call a handler of `kind` is not on the actor the
  /// handler is isolated to. Debug builds call it before every call (`#if DEBUG` at the call
  /// site, so that a release build does not even read `kind`).
  ///
  /// The main actor is checked as the delivery path decides it (`MainActorDetection`), which is
  /// what the runtime's own check accepts on every platform; another actor is checked by the
  /// runtime (`assertIsolated`), from inside the task that drains its deliveries.
  @inlinable
  package static func assertIsolated(_ kind: Delivery.Kind) {
    switch kind {
    case .mainActor(isolated: true):
      precondition(
        MainActorDetection.isOnMainActor,
        "Events: a handler isolated to the main actor was about to run off it")
    case .actor(let actor):
      actor.object?.assertIsolated("Events: a handler isolated to an actor was about to run off it")
    case .synchronous, .queue, .mainActor(isolated: false):
      break
    }
  }
}
