#if canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Darwin)
  public import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the one lock of the package.
///
/// Not `Synchronization.Mutex`: on Linux its contended path parks in a futex inside the
/// uninstrumented `libswiftSynchronization.so`, so ThreadSanitizer misses the hand-off and
/// reports races that are not there, and the stress tests must run clean under TSan. A pthread
/// mutex is intercepted by TSan on every platform and costs the same uncontended.
///
/// The state and the mutex share one heap object (the mutex in its tail), so a lock costs one
/// allocation. Copies of a `Lock` share that object.
///
/// `@unchecked Sendable`: the state is read and written only inside `withLock`, under the mutex.
@usableFromInline package struct Lock<State>: @unchecked Sendable {
  @usableFromInline final class Storage: ManagedBuffer<State, pthread_mutex_t> {
    deinit {
      _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
  }

  @usableFromInline let storage: Storage

  // Inlinable so that each lock is made at its state's own type: unspecialized, the init looks
  // up the storage's generic metadata and copies the state through value witnesses.
  @inlinable package init(_ state: State) {
    storage = unsafeDowncast(
      Storage.create(minimumCapacity: 1) { _ in state }, to: Storage.self)
    storage.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      _ = pthread_mutex_init(mutex, nil)
    }
  }

  /// Runs `body` with exclusive access to the state. Never call out to user code inside it.
  /// The lock whose storage is `storage`, for ``LazyLock``.
  @inlinable init(storage: Storage) {
    self.storage = storage
  }

  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { state, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&state.pointee)
    }
  }
}

/// A ``Lock`` whose storage is allocated on first use: for the locks of an object that most
/// instances never take (an event's type registrations and streams), so that making and
/// releasing such an object, as a keyed event does for each key, costs neither allocation.
@usableFromInline package struct LazyLock<State>: ~Copyable, @unchecked Sendable {
  // `@unchecked Sendable`: as `Lock`; the reference is written once.
  @usableFromInline let reference = LazyReference()

  @inlinable package init() {}

  /// The lock, made with `initial` by the first caller; concurrent first callers get the same
  /// lock.
  @inlinable package func lock(_ initial: () -> State) -> Lock<State> {
    if let storage = reference.load(as: Lock<State>.Storage.self) {
      return Lock(storage: storage)
    }
    return Lock(storage: reference.storeIfNil(Lock(initial()).storage))
  }

  /// The lock, if a caller of ``lock(_:)`` made it.
  @inlinable package var existing: Lock<State>? {
    reference.load(as: Lock<State>.Storage.self).map { Lock(storage: $0) }
  }
}
