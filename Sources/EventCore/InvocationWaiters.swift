#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a `cancel()` sleeps while an invocation of its registration runs on another thread, and
/// what wakes it: one condition variable for the whole process.
///
/// Waiting is rare (a cancel racing a call in progress), so one shared condition is enough: a
/// waiter announces itself in the registration's state word under the mutex, then sleeps until
/// the count of invocations in flight is zero; the invocation that brings the count to zero sees
/// the announcement and broadcasts under the same mutex, so no wake-up is lost.
@usableFromInline enum InvocationWaiters {
  /// `@unchecked Sendable`: the mutex and the condition are pthread objects, made for use from
  /// any thread; the pointers themselves never change.
  private final class Storage: @unchecked Sendable {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
      mutex.initialize(to: pthread_mutex_t())
      condition.initialize(to: pthread_cond_t())
      pthread_mutex_init(mutex, nil)
      pthread_cond_init(condition, nil)
    }
  }

  private static let storage = Storage()

  /// Announces a waiter with `announce`, then sleeps until `isDone` holds. Both run under the
  /// mutex that ``wakeAll()`` takes.
  static func wait(announce: () -> Void, until isDone: () -> Bool) {
    pthread_mutex_lock(storage.mutex)
    defer { pthread_mutex_unlock(storage.mutex) }
    announce()
    while !isDone() { pthread_cond_wait(storage.condition, storage.mutex) }
  }

  /// Wakes every waiter, each to check its own registration again.
  @usableFromInline static func wakeAll() {
    pthread_mutex_lock(storage.mutex)
    pthread_cond_broadcast(storage.condition)
    pthread_mutex_unlock(storage.mutex)
  }
}
