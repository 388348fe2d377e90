#if canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Darwin)
  public import Darwin
#endif

/// Marks the current thread as delivering, so that a cancel from inside a handler does not wait
/// for invocations in flight (it could be waiting on itself, or on a thread waiting on it).
///
/// A per-thread depth counter, kept in a pthread key's slot as an integer, so nested and
/// re-entrant posts work and no allocation is made.
@usableFromInline package enum DeliveryScope {
  /// Each thread's depth counter, allocated on its first delivery and freed with the thread, so
  /// that entering and leaving a delivery is an increment and a decrement, not two
  /// `pthread_setspecific` calls.
  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { $0?.deallocate() }
    return key
  }()

  @usableFromInline static func depth() -> UnsafeMutablePointer<Int> {
    if let existing = pthread_getspecific(key) {
      return existing.assumingMemoryBound(to: Int.self)
    }
    let depth = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    depth.initialize(to: 0)
    pthread_setspecific(key, depth)
    return depth
  }

  /// Whether the current thread is inside a delivery.
  @usableFromInline package static var isActive: Bool {
    guard let depth = pthread_getspecific(key) else { return false }
    return depth.assumingMemoryBound(to: Int.self).pointee > 0
  }

  /// Runs `body` marked as a delivery on the current thread.
  @inlinable
  package static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    let depth = depth()
    depth.pointee += 1
    defer { depth.pointee -= 1 }
    return try body()
  }
}
