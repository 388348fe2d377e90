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
@usableFromInline final class UnretainedObserver: ManagedBuffer<Int, UInt8> {
  /// Copies `observer`, which is `object` as a `P`, without retaining it.
  ///
  /// - Precondition: `observer` is a class instance; `object` is that instance.
  static func make<P>(_ observer: P, of object: AnyObject) -> UnretainedObserver {
    let size = MemoryLayout<P>.size
    // `create` allocates an instance of the class it is called on, this subclass. The header
    // is the number of bytes copied.
    let buffer = unsafeDowncast(
      create(minimumCapacity: size) { _ in size }, to: UnretainedObserver.self)
    buffer.withUnsafeMutablePointerToElements { bytes in
      withUnsafePointer(to: observer) { source in
        UnsafeMutableRawPointer(bytes).copyMemory(from: source, byteCount: size)
      }
    }
    // Debug builds check the layout argument above by rebuilding the `P` the way a
    // notification does; `object` is alive here, the caller holds `observer`.
    assert(buffer.rebuildsObserver(object, as: P.self))
    return buffer
  }

  /// Calls `body` with the observer as the `P` it was registered as, borrowed.
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
      withUnsafeMutablePointers { size, bytes in
        UnsafeMutableRawPointer(copy).copyMemory(from: bytes, byteCount: size.pointee)
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
    withObserver(object, as: P.self) { observer in same = (observer as AnyObject) === object }
    return same
  }
}
