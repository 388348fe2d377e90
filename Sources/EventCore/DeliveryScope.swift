#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Marks the current thread as delivering, so that a cancel from inside a handler does not wait
/// for invocations in flight (it could be waiting on itself, or on a thread waiting on it).
///
/// A per-thread depth counter, kept in a pthread key's slot as an integer, so nested and
/// re-entrant posts work and no allocation is made.
package enum DeliveryScope {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Whether the current thread is inside a delivery.
  package static var isActive: Bool {
    pthread_getspecific(key) != nil
  }

  /// Runs `body` marked as a delivery on the current thread.
  @inline(__always)
  package static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    let depth = Int(bitPattern: pthread_getspecific(key))
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth + 1))
    defer { pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth)) }
    return try body()
  }
}
