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
  /// - Parameters:
  ///   - markers: Further queues to wait for, such as async handlers' own: each is called once
  ///     with the closure to call when its deliveries so far have run.
  ///   - endingOnCancel: Whether the task's cancellation ends the wait (the deliveries go on).
  package func flush(
    also markers: [@Sendable (@escaping @Sendable () -> Void) -> Void] = [],
    endingOnCancel: Bool = false
  ) async {
    let entries = snapshot()
    // One unit for the loop below, released last, so that the join cannot complete early.
    let join = FlushJoin()
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        join.start(continuation)
        enqueueMarkers(for: entries, also: markers, into: join)
      }
    } onCancel: {
      if endingOnCancel { join.cancel() }
    }
  }

  /// Queues one marker behind each queue's and each registration's calls, and `markers`;
  /// the last to run resumes `join`.
  private func enqueueMarkers(
    for entries: ContiguousArray<Entry>,
    also markers: [@Sendable (@escaping @Sendable () -> Void) -> Void], into join: FlushJoin
  ) {
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

/// Counts the markers a flush waits for and resumes it when the last one has run, or when it
/// is cancelled.
package final class FlushJoin: Sendable {
  private struct State {
    var pending = 1
    var continuation: CheckedContinuation<Void, Never>?
    var cancelled = false
  }

  private let state = Lock(State())

  /// A join holding one unit, released by the last ``leave()``.
  package init() {}

  /// Gives the join the wait to resume; resumed at once if it was cancelled already.
  package func start(_ continuation: CheckedContinuation<Void, Never>) {
    let cancelled = state.withLock { state -> Bool in
      guard !state.cancelled else { return true }
      state.continuation = continuation
      return false
    }
    if cancelled { continuation.resume() }
  }

  /// Resumes the wait now; the markers still run, and resume nothing.
  package func cancel() {
    let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.cancelled = true
      return state.continuation.take()
    }
    waiting?.resume()
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
