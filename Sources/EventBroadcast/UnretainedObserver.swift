/// An observer registered as a `P`, kept as a copy of the bytes of that `P` that does not own
/// the strong reference inside them.
///
/// A ``Broadcaster`` holds its observers weakly but hands them to `notify` as `P`. Rebuilding a
/// `P` from the weakly held object with `object as! P` costs a conformance lookup per observer
/// per notification; instead the registration keeps the `P` it was given, minus the reference
/// count, and a notification lends a copy of it to `body` while the strong reference from the
/// entry's weak load keeps the object alive: one retain and one release per observer, those of
/// the weak load, and no metadata lookup.
///
/// Why this is sound:
/// - ``init(_:of:)`` accepts only a `P` whose value is a class instance, `object` (the
///   broadcaster checks it), so its bytes are either the object reference itself (`P` a class
///   or a class-bound existential) or an existential container whose inline buffer holds that
///   reference (class references always fit inline) next to the type's metadata and witness
///   tables. The one reference-counted thing in them is one strong reference to `object`;
///   metadata and witness tables are never reference counted.
/// - The bytes are copied without a retain and never destroyed: they are kept as plain words
///   (inline, or in memory of their own for a large `P`, which its route frees as raw memory).
///   So the copy owns nothing, and the registration stays weak.
/// - ``withObserver(_:as:_:)`` copies the bytes to the stack and moves them into a `P` that
///   claims the one reference they contain, but was never retained. It lends that `P` to `body`
///   (a borrow: `body` retains it if it keeps it), then moves it back into the stack copy, which
///   is abandoned without a destroy: the claimed reference is never released either, so the
///   object's count is untouched. The object outlives the call because the caller holds `alive`,
///   the strong reference its weak load returned; a weak load succeeds only while the very
///   object registered lives (a weak reference never resolves to a later object at the same
///   address), so `alive` is `object`.
/// - The bytes are written once, before the entry that holds their route is published through
///   the observer list's lock, and only read after that, from any thread; each notification
///   works on its own stack copy, so concurrent notifications never write shared memory.
/// - A notification writes `alive`'s reference into the copy's first word, which for the
///   registration's own bytes is the reference they hold already. So a route may serve every
///   registration whose bytes differ in that word only (``hasSameType(as:)``): a class, or a
///   class-bound existential of one dynamic type, whose other words are its witness tables,
///   the same for each instance.
///
/// Not every `P` holding a class instance holds the reference itself: an `any Error` is a
/// pointer to a box that holds the instance strongly, which the caller frees once it drops its
/// `any Error`. Copying that pointer would keep a dangling, unretained box. So ``init(_:of:)``
/// copies only bytes whose first word is `object` (the reference itself, or an existential
/// container holding it inline); for any other `P` it copies nothing, and ``withObserver(_:as:_:)``
/// rebuilds the `P` from the live object with a cast, at the cost of the box it allocates.
///
/// `@unchecked Sendable` for ``spilled``, a pointer: the memory it points to is written once, in
/// `init`, read only afterwards, and freed only by the route's `deinit`, when nothing reads it.
@usableFromInline struct UnretainedObserver: @unchecked Sendable {
  /// The words a `P` of at most five fits in, which every class, class-bound existential of up
  /// to four protocols and protocol existential of one does; a larger `P` is kept in ``spilled``.
  /// Inline, they cost a registration no allocation of their own.
  @usableFromInline typealias Words = (UInt, UInt, UInt, UInt, UInt)

  /// The number of bytes copied; 0 when the `P` is rebuilt by a cast (see the type).
  @usableFromInline let size: Int
  /// The bytes of a `P` that fits in ``Words``.
  @usableFromInline let words: Words
  /// The bytes of a larger `P`; freed by ``deallocate()``.
  @usableFromInline let spilled: UnsafeMutableRawPointer?

  /// Copies the `P` at `observer`, which is `object` as a `P`, without retaining it.
  ///
  /// Takes the observer's address, which the caller has at hand: a copy of the observer would
  /// retain the object, which its side table makes slow.
  ///
  /// - Precondition: `observer` is a class instance; `object` is that instance.
  @inlinable init<P>(_ observer: UnsafePointer<P>, of object: borrowing AnyObject) {
    let size = MemoryLayout<P>.size
    var words: Words = (0, 0, 0, 0, 0)
    var spilled: UnsafeMutableRawPointer?
    let bytes = UnsafeRawPointer(observer)
    let holdsObject =
      size >= MemoryLayout<UInt>.size
      && bytes.load(as: UInt.self) == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    if holdsObject {
      if size <= MemoryLayout<Words>.size {
        withUnsafeMutableBytes(of: &words) {
          $0.baseAddress.unsafelyUnwrapped.copyMemory(from: bytes, byteCount: size)
        }
      } else {
        spilled = UnsafeMutableRawPointer.allocate(
          byteCount: size, alignment: MemoryLayout<P>.alignment)
        spilled.unsafelyUnwrapped.copyMemory(from: bytes, byteCount: size)
      }
    }
    self.size = holdsObject ? size : 0
    self.words = words
    self.spilled = spilled
    // Debug builds check the layout argument above by rebuilding the `P` the way a
    // notification does; `object` is alive here, the caller holds `observer`.
    assert(rebuildsObserver(object, as: P.self))
  }

  /// Frees the bytes of a large `P`; for the route that holds this copy, once, in its `deinit`.
  func deallocate() {
    spilled?.deallocate()
  }

  /// Calls `body` with the observer as the `P` it was registered as, whatever its layout: the
  /// copied bytes, or a `P` rebuilt from `alive` by a cast (`any Error`). Does nothing if the
  /// cast fails (a conformance isolated to an actor the caller is not on).
  @usableFromInline
  func withAnyObserver<P>(_ alive: AnyObject, as type: P.Type, _ body: (P) -> Void) {
    guard size == 0 else { return withObserver(alive, as: type, body) }
    if let observer = alive as? P { body(observer) }
  }

  /// Calls `body` with the observer as the `P` it was registered as, borrowed, from the copied
  /// bytes: for a copy whose ``size`` is not 0.
  ///
  /// - Parameters:
  ///   - alive: A strong reference to the observer. A parameter, so the caller holds it until
  ///     the call returns.
  ///   - type: The type the observer was registered as.
  ///   - body: Called once with the observer.
  /// - Precondition: `P` is the type the observer was registered as.
  @inlinable
  func withObserver<P>(_ alive: AnyObject, as type: P.Type, _ body: (P) -> Void) {
    withUnsafeTemporaryAllocation(of: P.self, capacity: 1) { storage in
      let copy = UnsafeMutableRawPointer(storage.baseAddress.unsafelyUnwrapped)
      // The size of `P`, which is ``size`` for copied bytes: a constant here, so the copy is a
      // few moves rather than a call to `memcpy`, and the test below is decided at compile time.
      let size = MemoryLayout<P>.size
      if size <= MemoryLayout<Words>.size {
        withUnsafeBytes(of: words) {
          copy.copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: size)
        }
      } else {
        copy.copyMemory(from: spilled.unsafelyUnwrapped, byteCount: size)
      }
      // The reference itself from `alive`, which is the object registered (see the type's
      // proof): a route shared by several registrations keeps the other words only.
      copy.storeBytes(
        of: UInt(bitPattern: Unmanaged.passUnretained(alive).toOpaque()), as: UInt.self)
      // A `P` claiming a reference that was never retained (see the type's proof): lent to
      // `body`, then moved back and abandoned, never released.
      let observer = storage.baseAddress.unsafelyUnwrapped.move()
      body(observer)
      storage.baseAddress.unsafelyUnwrapped.initialize(to: consume observer)
    }
  }

  /// Whether `other` is a copy of a `P` of the same dynamic type: the same bytes but for the
  /// first word, the reference, which ``withObserver(_:as:_:)`` writes from the live object.
  ///
  /// Decisive only for a `P` whose every word but the first is type information (a class, or a
  /// class-bound existential: the reference, then witness tables), which ``ClassReference``
  /// tells; the caller checks it. An opaque existential's inline buffer may hold leftover words.
  func hasSameType(as other: UnretainedObserver) -> Bool {
    size == other.size && size != 0 && words.1 == other.words.1 && words.2 == other.words.2
      && words.3 == other.words.3 && words.4 == other.words.4
  }

  /// Whether a notification's copy of the observer is `object`, with balanced retains.
  @usableFromInline func rebuildsObserver<P>(_ object: AnyObject, as _: P.Type) -> Bool {
    var same = false
    withAnyObserver(object, as: P.self) { observer in
      same = dynamicCast(observer as Any, to: AnyObject.self) === object
    }
    return same
  }
}

/// `value as? T` as the runtime casts it. Written as a generic function because the compiler
/// calls `(value as Any) as? AnyObject` a cast that "always succeeds" and would have it
/// unconditional, which converts an `any Error` to a new box; the dynamic cast opens the box and
/// returns the object inside.
func dynamicCast<T>(_ value: Any, to _: T.Type) -> T? {
  value as? T
}
