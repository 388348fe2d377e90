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
/// `@unchecked Sendable`: `state` is read and written only inside `withLock`, under `mutex`.
@usableFromInline package final class Lock<State>: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @exclusivity(unchecked) @usableFromInline var state: State

  @usableFromInline package init(_ state: State) {
    self.state = state
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the state. Never call out to user code inside it.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows
    -> Result
  {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}
