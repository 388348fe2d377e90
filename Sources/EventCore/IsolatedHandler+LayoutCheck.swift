// The reinterpretation in IsolatedHandler.swift rests on a representation SE-0431 does not
// document, tested on Swift 6.2 and 6.3. The package's tests check it, but a client built with
// a newer compiler never runs them, so the library checks it too, once per process, before the
// first reinterpretation. No `#warning` for untested toolchains: it would fail every client
// that builds its dependencies with warnings as errors, and this check already speaks up.

extension IsolatedHandler {
  /// Whether the representation the reinterpretation assumes holds on the toolchain that built
  /// this library: always `true`, since the check stops the program otherwise.
  ///
  /// A static `let`, so the check runs once per process, on the first reinterpretation (every
  /// `callable` reads it; afterwards a read costs what a lazy global's does, one load).
  @usableFromInline package static let layoutVerified: Bool = verifyLayout()

  /// How many times ``verifyLayout()`` ran, for the tests that prove it runs once.
  package static var layoutChecks: Int { layoutCheckCount.withLock { $0 } }

  private static let layoutCheckCount = Lock(0)

  /// Runs ``verifyLayout()`` on the first call in the process; afterwards one load and branch.
  @inlinable @inline(__always)
  static func requireVerifiedLayout() {
    // A branch on the value, not `_ = layoutVerified`, whose unused read the optimizer could
    // drop along with the check.
    if !layoutVerified { fatalError("Events: the @isolated(any) layout check did not return") }
  }

  /// Checks every assumption of the reinterpretation with known closures: the sizes of each
  /// pair of `Isolated` and `Plain` types, the isolation read back after a round trip through the
  /// plain type (an actor's and none), and calls through the plain type of each shape.
  ///
  /// Uses `unsafeBitCast` directly, never the `callable` functions, which read
  /// ``layoutVerified`` and so would wait on this very initialization.
  ///
  /// - Returns: `true`; stops the program with a message naming the broken assumption instead.
  package static func verifyLayout() -> Bool {
    layoutCheckCount.withLock { $0 += 1 }
    func require(_ holds: Bool, _ assumption: String) {
      guard holds else {
        // `fatalError` rather than `preconditionFailure`, which drops its message in optimized
        // builds: a user must learn which assumption broke.
        fatalError(
          "Events: this Swift toolchain breaks an assumption of the @isolated(any) "
            + "reinterpretation (Sources/EventCore/IsolatedHandler.swift): \(assumption). "
            + "Handlers cannot be called safely; please report it with the compiler's version.")
      }
    }
    func sameLayout<A, B>(_: A.Type, _: B.Type) -> Bool {
      MemoryLayout<A>.size == MemoryLayout<B>.size
        && MemoryLayout<A>.alignment == MemoryLayout<B>.alignment
        && MemoryLayout<A>.stride == MemoryLayout<B>.stride
    }
    require(
      sameLayout(Isolated<Int, String>.self, Plain<Int, String>.self)
        && sameLayout(IsolatedClosure<Int>.self, PlainClosure<Int>.self)
        && sameLayout(
          IsolatedObserverHandler<AnyObject, Int>.self, PlainObserverHandler<AnyObject, Int>.self)
        && sameLayout(IsolatedBoundHandler<Anchor, Int>.self, BoundHandler<AnyObject, Int>.self)
        && sameLayout(BoundHandler<Anchor, Int>.self, BoundHandler<AnyObject, Int>.self)
        && sameLayout(IsolatedThrowingClosure<Int>.self, PlainThrowingClosure<Int>.self)
        && sameLayout(
          IsolatedThrowingObserverHandler<AnyObject, Int>.self,
          PlainThrowingObserverHandler<AnyObject, Int>.self),
      "an @isolated(any) function no longer has the layout of the plain function type")

    let onMain: @isolated(any) @Sendable (Int) -> Void = { @MainActor _ in }
    let plainMain = unsafeBitCast(IsolatedClosure(body: onMain), to: PlainClosure<Int>.self)
    let mainBack = unsafeBitCast(plainMain, to: IsolatedClosure<Int>.self).body
    require(
      mainBack.isolation === MainActor.shared,
      "a closure's isolation no longer reads back the same after a round trip")

    let received = Lock<[String]>([])
    let nonisolated: @isolated(any) @Sendable (Int) -> Void = { @Sendable value in
      received.withLock { $0.append("closure \(value)") }
    }
    let plain = unsafeBitCast(IsolatedClosure(body: nonisolated), to: PlainClosure<Int>.self)
    require(
      unsafeBitCast(plain, to: IsolatedClosure<Int>.self).body.isolation == nil,
      "a nonisolated closure's isolation no longer reads back as nil")
    plain.body(1)

    let pack: @isolated(any) (Int, String) -> Void = { @Sendable count, name in
      received.withLock { $0.append("pack \(count) \(name)") }
    }
    // Through a generic function, as `callable` does: a pack's function is called at its
    // generic abstraction.
    func callPlain<each Element>(
      _ function: @escaping @isolated(any) (repeat each Element) -> Void,
      _ element: repeat each Element
    ) {
      unsafeBitCast(Isolated(function: function), to: Plain<repeat each Element>.self)
        .function(repeat each element)
    }
    callPlain(pack, 2, "b")

    // An observer's handler, erased to `AnyObject` (`BoundHandler`), through a generic function
    // as an entry's initializer makes it: it must receive the very object it is called with.
    let anchor = Anchor()
    let bound: @isolated(any) (Anchor, Int) -> Void = { @Sendable object, value in
      received.withLock { $0.append("bound \(object === anchor) \(value)") }
    }
    func callErased<Observer: AnyObject, Payload>(
      _ function: @escaping @isolated(any) (Observer, Payload) -> Void, _ object: AnyObject,
      _ payload: Payload
    ) {
      unsafeBitCast(
        IsolatedBoundHandler(body: function), to: BoundHandler<AnyObject, Payload>.self
      ).body(object, payload)
    }
    callErased(bound, anchor, 4)

    struct Thrown: Error { let value: Int }
    let throwing: @isolated(any) @Sendable (Int) throws -> Void = { @Sendable value in
      throw Thrown(value: value)
    }
    let plainThrowing = unsafeBitCast(
      IsolatedThrowingClosure(body: throwing), to: PlainThrowingClosure<Int>.self)
    do { try plainThrowing.body(3) } catch let error as Thrown {
      received.withLock { $0.append("threw \(error.value)") }
    } catch {}

    require(
      received.withLock { $0 } == ["closure 1", "pack 2 b", "bound true 4", "threw 3"],
      "a call through the plain function type no longer reaches the closure with its arguments")
    return true
  }
}

/// An object for the layout check's calls to hand over.
private final class Anchor: Sendable {}
