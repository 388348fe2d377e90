import Foundation

/// Records what handlers report, from any thread, and lets the demo wait, with a bound, until
/// enough has arrived.
///
/// Waiting suspends the caller instead of blocking it, so deliveries scheduled onto the main
/// actor keep running while the main actor waits.
///
/// `@unchecked Sendable`: `values`, `waiters` and `nextWaiter` are read and written only while
/// `lock` is held; continuations are resumed after it is released.
final class Arrivals<Value: Sendable>: @unchecked Sendable {
  private struct Waiter {
    let id: Int
    let count: Int
    let continuation: CheckedContinuation<Bool, Never>
  }

  private let lock = NSLock()
  private var values: [Value] = []
  private var waiters: [Waiter] = []
  private var nextWaiter = 0

  /// Records one arrival and wakes the waiters it satisfies.
  func record(_ value: Value) {
    let satisfied = lock.withLock {
      values.append(value)
      let count = values.count
      let satisfied = waiters.filter { $0.count <= count }
      waiters.removeAll { $0.count <= count }
      return satisfied
    }
    for waiter in satisfied { waiter.continuation.resume(returning: true) }
  }

  /// Everything recorded so far, in arrival order.
  var all: [Value] {
    lock.withLock { values }
  }

  /// How many values have arrived.
  var count: Int {
    lock.withLock { values.count }
  }

  /// Waits until at least `count` values have arrived, or `seconds` have passed.
  ///
  /// - Returns: Whether `count` values arrived in time.
  func wait(for count: Int, seconds: Double = 5) async -> Bool {
    await withCheckedContinuation { continuation in
      let id: Int? = lock.withLock {
        guard values.count < count else { return nil }
        nextWaiter += 1
        waiters.append(Waiter(id: nextWaiter, count: count, continuation: continuation))
        return nextWaiter
      }
      guard let id else { return continuation.resume(returning: true) }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
        let expired = lock.withLock {
          let expired = waiters.first { $0.id == id }
          waiters.removeAll { $0.id == id }
          return expired
        }
        expired?.continuation.resume(returning: false)
      }
    }
  }
}
