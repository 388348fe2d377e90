public import Synchronization

/// A reference set at most once, atomically, by the first of several racing threads: the
/// per-registration extras (a mailbox, held deliveries, owners) that most registrations never
/// create.
///
/// Why not `AtomicLazyReference`: its `deinit` is generic code in the Synchronization library,
/// which looks up the metadata of `Optional`, `Atomic` and `Unmanaged` for its element type on
/// every destruction, unspecialized. A registration holds four of them, so ending one would pay
/// for those lookups four times, even when none of them was ever set. This one stores the
/// object's bit pattern in an `Atomic<UInt>` and releases it as an `AnyObject`: its `deinit` is
/// concrete (the type is not generic: a generic one's `deinit` would take, hence look up, its
/// element's metadata) and costs one load when nothing was stored.
@usableFromInline package struct LazyReference: ~Copyable, @unchecked Sendable {
  // `@unchecked Sendable`: the state is one atomic word, written once (compare-exchange from 0)
  // and released only by `deinit`.
  @usableFromInline let bits = Atomic<UInt>(0)

  @inlinable package init() {}

  deinit {
    let current = bits.load(ordering: .acquiring)
    if current != 0 {
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: current).unsafelyUnwrapped)
        .release()
    }
  }

  /// The stored object, or `nil` before the first ``storeIfNil(_:)``.
  @inlinable package func load<Object: AnyObject>(as type: Object.Type) -> Object? {
    let current = bits.load(ordering: .acquiring)
    guard current != 0 else { return nil }
    return unsafeDowncast(
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: current).unsafelyUnwrapped)
        .takeUnretainedValue(), to: Object.self)
  }

  /// Stores `object` unless another one was stored first.
  ///
  /// - Returns: The object stored: `object`, or the one that won the race.
  @inlinable package func storeIfNil<Object: AnyObject>(_ object: Object) -> Object {
    let candidate = Unmanaged<AnyObject>.passRetained(object)
    let desired = UInt(bitPattern: candidate.toOpaque())
    let (exchanged, original) = bits.compareExchange(
      expected: 0, desired: desired, ordering: .acquiringAndReleasing)
    if exchanged { return object }
    candidate.release()
    return unsafeDowncast(
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: original).unsafelyUnwrapped)
        .takeUnretainedValue(), to: Object.self)
  }
}
