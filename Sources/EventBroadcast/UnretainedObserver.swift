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
/// - ``make(_:of:)`` accepts only a `P` whose value is a class instance, `object` (the
///   broadcaster checks it), so its bytes are either the object reference itself (`P` a class
///   or a class-bound existential) or an existential container whose inline buffer holds that
///   reference (class references always fit inline) next to the type's metadata and witness
///   tables. The one reference-counted thing in them is one strong reference to `object`;
///   metadata and witness tables are never reference counted.
/// - The bytes are copied without a retain and never destroyed: `ManagedBuffer` does not
///   deinitialize its elements, and this class adds no `deinit`. So the copy owns nothing, and
///   the registration stays weak.
/// - ``withObserver(_:as:_:)`` copies the bytes to the stack and moves them into a `P` that
///   claims the one reference they contain, but was never retained. It lends that `P` to `body`
///   (a borrow: `body` retains it if it keeps it), then moves it back into the stack copy, which
///   is abandoned without a destroy: the claimed reference is never released either, so the
///   object's count is untouched. The object outlives the call because the caller holds `alive`,
///   the strong reference its weak load returned; a weak load succeeds only while the very
///   object registered lives (a weak reference never resolves to a later object at the same
///   address), so `alive` is `object`.
/// - The bytes are written once, before the entry that holds them is published through the
///   observer list's lock, and only read after that, from any thread; each notification works on
///   its own stack copy, so concurrent notifications never write shared memory.
///
/// Not every `P` holding a class instance holds the reference itself: an `any Error` is a
/// pointer to a box that holds the instance strongly, which the caller frees once it drops its
/// `any Error`. Copying that pointer would keep a dangling, unretained box. So ``make(_:of:)``
/// copies only bytes whose first word is `object` (the reference itself, or an existential
/// container holding it inline); for any other `P` it copies nothing, and ``withObserver(_:as:_:)``
/// rebuilds the `P` from the live object with a cast, at the cost of the box it allocates.
@usableFromInline final class UnretainedObserver: ManagedBuffer<UnretainedObserver.Header, UInt8> {
  @usableFromInline struct Header {
    /// The number of bytes copied; 0 when the `P` is rebuilt by a cast (see the type).
    @usableFromInline let size: Int
    /// Whether `notify` calls the observer itself, inline: a nonisolated, synchronous
    /// registration of a `P` whose bytes were copied. Everything else goes through ``route``.
    @usableFromInline let isInline: Bool
    /// Where the registration's calls run, and the calls queued for it.
    @usableFromInline let route: ObserverRoute
    /// The observer, held weakly as the entry holds it (see ``observer``).
    @usableFromInline weak var object: AnyObject?
  }

  /// Copies `observer`, which is `object` as a `P`, without retaining it, with the route its
  /// calls take.
  ///
  /// - Precondition: `observer` is a class instance; `object` is that instance.
  static func make<P>(_ observer: P, of object: AnyObject, route: ObserverRoute)
    -> UnretainedObserver
  {
    let size = MemoryLayout<P>.size
    let holdsObject =
      size >= MemoryLayout<UInt>.size
      && withUnsafeBytes(of: observer) { $0.load(as: UInt.self) }
        == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    let copied = holdsObject ? size : 0
    let isInline = holdsObject && route.kind.isSynchronous
    // `create` allocates an instance of the class it is called on, this subclass.
    let buffer = unsafeDowncast(
      create(minimumCapacity: copied) { _ in
        Header(size: copied, isInline: isInline, route: route, object: object)
      }, to: UnretainedObserver.self)
    buffer.withUnsafeMutablePointerToElements { bytes in
      withUnsafePointer(to: observer) { source in
        UnsafeMutableRawPointer(bytes).copyMemory(from: source, byteCount: copied)
      }
    }
    // Debug builds check the layout argument above by rebuilding the `P` the way a
    // notification does; `object` is alive here, the caller holds `observer`.
    assert(buffer.rebuildsObserver(object, as: P.self))
    return buffer
  }

  /// Whether `notify` calls the observer inline, without a route (see ``Header/isInline``).
  @inlinable var isInline: Bool {
    withUnsafeMutablePointerToHeader { $0.pointee.isInline }
  }

  /// The observer, loaded strong, or `nil` once it is deallocated: the entry's `observer`,
  /// which dies with it.
  ///
  /// Read here rather than through the entry: the header is read through a pointer, which has no
  /// exclusivity check, while a read of the entry's stored `observer` compiled outside EventCore
  /// checks at run time (`swift_beginAccess`, about 76 instructions per observer per notify,
  /// callgrind), `@exclusivity(unchecked)` being invisible across modules. The reference is
  /// written once, before the entry is published, and a weak load is atomic.
  @inlinable var observer: AnyObject? {
    withUnsafeMutablePointerToHeader { $0.pointee.object }
  }

  /// Where the registration's calls run.
  @usableFromInline var route: ObserverRoute {
    withUnsafeMutablePointerToHeader { $0.pointee.route }
  }

  /// Calls `body` with the observer as the `P` it was registered as, whatever its layout: the
  /// copied bytes, or a `P` rebuilt from `alive` by a cast (`any Error`). Does nothing if the
  /// cast fails (a conformance isolated to an actor the caller is not on).
  func withAnyObserver<P>(_ alive: AnyObject, as type: P.Type, _ body: (P) -> Void) {
    guard withUnsafeMutablePointerToHeader({ $0.pointee.size }) == 0 else {
      return withObserver(alive, as: type, body)
    }
    if let observer = alive as? P { body(observer) }
  }

  /// Calls `body` with the observer as the `P` it was registered as, borrowed, from the copied
  /// bytes: for a registration whose header's size is not 0.
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
      let copy = storage.baseAddress.unsafelyUnwrapped
      // The size of `P`, which is the header's size for copied bytes: a constant here, so the
      // copy is a few moves rather than a call to `memcpy`.
      withUnsafeMutablePointerToElements { bytes in
        UnsafeMutableRawPointer(copy).copyMemory(from: bytes, byteCount: MemoryLayout<P>.size)
      }
      // A `P` claiming a reference that was never retained (see the type's proof): lent to
      // `body`, then moved back and abandoned, never released.
      let observer = copy.move()
      body(observer)
      copy.initialize(to: consume observer)
    }
  }

  /// Whether a notification's copy of the observer is `object`, with balanced retains.
  private func rebuildsObserver<P>(_ object: AnyObject, as _: P.Type) -> Bool {
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
