import Dispatch

/// A timer for a bounded wait: calls `expire` once `duration` has passed, unless it is ended
/// first.
///
/// The waits of the package start one when they suspend and ``end()`` it before they return,
/// whatever ended the wait, so that nothing of the wait outlives it.
///
/// A dispatch timer source rather than a task that sleeps: a cancelled `Task.sleep` returns at
/// once, but the runtime keeps the sleeping task (and the closure it holds, with the wait's
/// registration and its list) until the sleep's deadline, so a server answering thousands of
/// requests with a 30 s timeout each would hold every answered wait for 30 s. Cancelling a
/// source releases its handler when the cancellation is processed, a moment later.
package struct TimeoutTimer: Sendable {
  private enum Phase {
    /// Neither fired nor ended.
    case pending
    /// `expire` is running; ``end()`` waits for it, with its continuation if it has come.
    case firing(CheckedContinuation<Void, Never>?)
    /// Fired or ended: nothing more runs.
    case finished
  }

  /// The source, which Dispatch on Linux does not mark `Sendable`; it is only scheduled, then
  /// cancelled, both thread-safe operations.
  private struct Source: @unchecked Sendable {
    let timer: any DispatchSourceTimer
  }

  private let source: Source
  private let phase: Lock<Phase>

  /// Starts the timer.
  ///
  /// - Parameters:
  ///   - duration: How long to wait, from now, on the system's monotonic clock.
  ///   - expire: Called once, off any actor, when `duration` has passed first; never after
  ///     ``end()`` has returned.
  package init(_ duration: Duration, expire: @escaping @Sendable () -> Void) {
    let phase = Lock(Phase.pending)
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.setEventHandler {
      let fires = phase.withLock { phase -> Bool in
        guard case .pending = phase else { return false }
        phase = .firing(nil)
        return true
      }
      guard fires else { return }
      expire()
      let waiting = phase.withLock { phase -> CheckedContinuation<Void, Never>? in
        defer { phase = .finished }
        guard case .firing(let continuation) = phase else { return nil }
        return continuation
      }
      waiting?.resume()
    }
    timer.schedule(deadline: Self.deadline(after: duration))
    timer.activate()
    self.source = Source(timer: timer)
    self.phase = phase
  }

  /// Stops the timer; if `expire` is running, waits for it to return (it is the waiter's own
  /// bookkeeping, never user code). Once this returns, `expire` never starts.
  package func end() async {
    source.timer.cancel()
    let firing = phase.withLock { phase -> Bool in
      guard case .pending = phase else {
        if case .firing = phase { return true }
        return false
      }
      phase = .finished
      return false
    }
    guard firing else { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = phase.withLock { phase -> Bool in
        guard case .firing = phase else { return true }
        phase = .firing(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// The dispatch time `duration` from now; the distant future for one too long to represent.
  private static func deadline(after duration: Duration) -> DispatchTime {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return .now() }
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow, whole <= Int64(Int.max) - 1_000_000_000 else { return .distantFuture }
    let nanoseconds = Int(whole + attoseconds / 1_000_000_000)
    return .now() + .nanoseconds(nanoseconds)
  }
}
