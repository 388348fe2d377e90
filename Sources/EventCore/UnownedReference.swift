import CEventCore

/// A reference that keeps an object's memory allocated but not the object alive, and hands out
/// a strong reference only while the object lives: a `weak` reference without the side table.
///
/// What it is for: a `Subscription` reaches its list entry for as long as the token lives, but
/// must not keep the entry (its handler, and what that captured) alive once the list has
/// dropped it. An entry reaches its list the same way (through ``UnownedAddress``), so that
/// the list needs no side table either. A weak reference does that too, but it moves the entry's
/// reference counts to a side table (an allocation), and every retain and release of the entry then
/// takes the runtime's slow path: about 178 instructions a pair against 48, on every subscribe,
/// cancel and purge.
///
/// Why it is sound: it is the protocol of `unowned(safe)`, with a check where that traps.
/// - An object's header holds an unowned count beside its strong count, and its memory is freed
///   only once both are 0. `init` raises the unowned count and `deinit` lowers it, so the
///   memory, header included, stays allocated while this reference exists, whatever became of
///   the object.
/// - The strong count alone decides when the object is deinitialized, as without this
///   reference: an entry still releases its handler when the list and its queued deliveries
///   let go of it.
/// - `swift_tryRetain` raises the strong count only if deinitialization has not begun, in one
///   atomic step on that header: once the strong count has reached 0 it fails for good. So
///   ``object`` never returns an object that is being, or has been, deinitialized.
///
/// `UnownedReferenceTests` checks each point. The runtime functions are those `unowned`
/// compiles to, exported on every platform; Swift may not name them itself, so they are called
/// through `CEventCore`. Only for native Swift classes (not Objective-C ones).
///
/// `Sendable` without a lock: the address is stored as an integer that never changes, and the
/// runtime makes every count change atomic.
struct UnownedReference<Object: AnyObject>: ~Copyable, Sendable {
  private let address: UInt

  /// Refers to `object`, or to nothing.
  init(_ object: Object?) {
    address = UnownedAddress.retain(object)
  }

  deinit {
    UnownedAddress.release(address)
  }

  /// The object, strongly, if it has not begun its deinitialization; `nil` otherwise.
  var object: Object? { UnownedAddress.object(at: address, as: Object.self) }
}

/// The steps of ``UnownedReference`` on a bare address, for a stored property that cannot be
/// `~Copyable`: whoever holds the address calls ``release(_:)`` once, when done with it.
@usableFromInline enum UnownedAddress {
  /// The address of `object` (0 for `nil`), with its memory kept allocated until ``release(_:)``.
  @usableFromInline static func retain(_ object: AnyObject?) -> UInt {
    guard let object else { return 0 }
    let pointer = Unmanaged.passUnretained(object).toOpaque()
    c_event_core_unowned_retain(pointer)
    return UInt(bitPattern: pointer)
  }

  /// Lets go of an address from ``retain(_:)``; 0 is none.
  @usableFromInline static func release(_ address: UInt) {
    guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
    c_event_core_unowned_release(pointer)
  }

  /// The object at an address from ``retain(_:)``, strongly, if it has not begun its
  /// deinitialization; `nil` otherwise, and for 0.
  @inlinable static func object<Object: AnyObject>(at address: UInt, as _: Object.Type)
    -> Object?
  {
    guard tryRetain(address) else { return nil }
    return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
      .takeRetainedValue()
  }

  /// Takes a strong reference to the object at an address from ``retain(_:)``, if it has not
  /// begun its deinitialization; `false` otherwise, and for 0.
  @usableFromInline static func tryRetain(_ address: UInt) -> Bool {
    guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return false }
    return c_event_core_try_retain(pointer)
  }
}
