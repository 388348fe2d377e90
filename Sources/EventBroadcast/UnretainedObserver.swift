/// An observer registered as a `P`, kept as a copy of the bytes of that `P` that does not own
/// the strong reference inside them.
///
/// A ``Broadcaster`` holds its observers weakly but hands them to `notify` as `P`. Rebuilding a
/// `P` from the weakly held object with `object as! P` costs a conformance lookup per observer
/// per notification; instead the registration keeps the `P` it was given, minus the reference
/// count, and a notification copies it out once the entry's weak load has proved the object
/// alive, adding the retain itself. None of this is generic, so no notification looks up
/// metadata, whether or not the client specialized `notify`.
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
/// - ``copy(retaining:into:)`` copies the bytes out and retains `object` once, through the
///   strong reference `alive` that the entry's weak load returned: the result is a `P` that
///   owns exactly the one strong reference its bytes contain, as a copy of the original `P`
///   would. Retaining is valid because `alive` keeps the object alive for the call, and a weak
///   load succeeds only while the very object registered lives (a weak reference never
///   resolves to a later object at the same address), so `alive` is `object`.
/// - The bytes are written once, before the entry that captures them is published through the
///   observer list's lock, and only read after that, from any thread.
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

  /// Copies the observer into `slot`, retained, and marks the slot filled.
  ///
  /// - Parameters:
  ///   - alive: A strong reference to the observer, held by the caller for the call.
  ///   - slot: An empty slot whose storage has room for the registered `P`.
  func copy(retaining alive: AnyObject, into slot: UnsafeMutablePointer<ObserverSlot>) {
    assert(!slot.pointee.isFilled, "a slot's observer must be taken before the next one")
    withUnsafeMutablePointers { size, bytes in
      slot.pointee.storage.copyMemory(from: bytes, byteCount: size.pointee)
    }
    // The copy's one reference to the object, which the notification's `take` takes over.
    _ = Unmanaged.passUnretained(alive).retain()
    slot.pointee.isFilled = true
  }

  /// Whether a notification's copy of the observer is `object`, with balanced retains.
  private func rebuildsObserver<P>(_ object: AnyObject, as _: P.Type) -> Bool {
    withUnsafeTemporaryAllocation(of: P.self, capacity: 1) { storage in
      var slot = ObserverSlot(storage: UnsafeMutableRawPointer(storage.baseAddress!))
      copy(retaining: object, into: &slot)
      guard let observer = slot.take(as: P.self) else { return false }
      return (observer as AnyObject) === object
    }
  }
}
