import Dispatch

extension ObserverList where Payload: Sendable {
  /// Suspends until every delivery queued for the current registrations has run: queued,
  /// main-actor and actor deliveries of the posts made before the call, and whatever
  /// `markers` wait for.
  ///
  /// Posts made after the call are not waited for: each registration's deliveries run in order,
  /// and the call waits for a marker queued behind those present now. It never blocks a thread:
  /// it suspends, so a flush made on the main actor lets the main queue run the deliveries it
  /// waits for. Nothing is added to the post path.
  ///
  /// - Parameter markers: Further queues to wait for, such as async handlers' own: each is
  ///   called once with the closure to call when its deliveries so far have run.
  package func flush(
    also markers: [@Sendable (@escaping @Sendable () -> Void) -> Void] = []
  ) async {
    let entries = snapshot()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // One unit for this loop, released last, so that the join cannot complete early.
      let join = FlushJoin(continuation)
      var queues = Set<ObjectIdentifier>()
      for entry in entries {
        if let queue = entry.flushQueue {
          guard queues.insert(ObjectIdentifier(queue)).inserted else { continue }
          join.enter()
          queue.async { join.leave() }
        } else {
          join.enter()
          entry.afterQueuedDeliveries { join.leave() }
        }
      }
      for marker in markers {
        join.enter()
        marker { join.leave() }
      }
      join.leave()
    }
  }
}

/// Counts the markers a flush waits for and resumes it when the last one has run.
package final class FlushJoin: Sendable {
  private let state: Lock<(pending: Int, continuation: CheckedContinuation<Void, Never>?)>

  /// A join holding one unit, released by the last ``leave()``.
  package init(_ continuation: CheckedContinuation<Void, Never>) {
    state = Lock((1, continuation))
  }

  /// Adds a marker to wait for.
  package func enter() {
    state.withLock { $0.pending += 1 }
  }

  /// A marker ran; the last one resumes the flush, after the lock.
  package func leave() {
    let done = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.pending -= 1
      guard state.pending == 0 else { return nil }
      defer { state.continuation = nil }
      return state.continuation
    }
    done?.resume()
  }
}
