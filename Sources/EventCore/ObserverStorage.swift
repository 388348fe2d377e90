public import Synchronization

/// The slots of one version of an ``ObserverList``: its entries, in delivery order, each held
/// once (retained) by the storage, and read by posts without a retain.
///
/// Appends go in place: a slot is written first, then ``count`` is raised with release ordering,
/// so a post that loaded the count earlier never reads it, and one that loads it later sees the
/// written slot. Any other write (clearing a slot, lowering the count over cleared slots at the
/// end, compacting, inserting before the end) happens only while no post holds the storage or
/// can be about to (see `ObserverList`), or goes to a new storage.
///
/// Not generic, so that releasing one needs no metadata: entries are stored as the bit patterns
/// of their `Unmanaged` references and released as `AnyObject`s.
///
/// `@unchecked Sendable`: the slots are written only by the owning list, under its `state` mutex,
/// as described above; ``count`` and ``holders`` are atomics.
@usableFromInline package final class ObserverStorage: @unchecked Sendable {
  /// The number of slots allocated.
  @usableFromInline let capacity: Int
  /// Bit patterns of retained `Unmanaged<ObserverEntry<Payload>>` references; 0 marks a slot
  /// whose entry has left and been released.
  @usableFromInline let slots: UnsafeMutablePointer<UInt>
  /// The slots written so far; posts read `slots[0..<count]`.
  @usableFromInline let count = Atomic<Int>(0)
  /// The posts iterating this storage now (and the lists' own cold paths that walk it).
  @usableFromInline let holders = Atomic<Int>(0)

  @usableFromInline init(capacity: Int) {
    self.capacity = capacity
    slots = .allocate(capacity: capacity)
    slots.initialize(repeating: 0, count: capacity)
  }

  deinit {
    let written = count.load(ordering: .acquiring)
    for index in 0..<written where slots[index] != 0 {
      Self.unmanaged(slots[index]).release()
    }
    slots.deallocate()
  }

  /// The object a slot's bit pattern refers to.
  @inlinable static func unmanaged(_ bits: UInt) -> Unmanaged<AnyObject> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
  }

  /// The bit pattern of a retained reference to `object`, for a slot.
  @inlinable static func retainedBits(_ object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
  }

  /// The bit pattern `object` has in a slot, without a retain.
  @inlinable static func bits(of object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }
}
