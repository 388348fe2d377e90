public import Dispatch
import Foundation

/// A one-shot or counting signal with a bounded wait, so a test that waits for an asynchronous
/// delivery fails after a timeout instead of hanging or guessing with a sleep.
public final class Signal: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)

  /// Creates a signal that has not fired.
  public init() {}

  /// Signals one waiter.
  public func fire() {
    semaphore.signal()
  }

  /// Waits until `fire()` has been called once more than the waits before it.
  ///
  /// - Returns: `false` if `seconds` passed first.
  public func wait(seconds: Double = 10) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
  }
}

/// Runs `body` on a thread of its own and waits for it, bounded, for tests that need "another
/// thread".
///
/// A `Thread` rather than `DispatchQueue.global()`: while other tests block the global queue's
/// workers, libdispatch on Linux adds a worker about once a second, so a block enqueued there
/// can wait seconds to start and a bounded wait would fail for the wrong reason.
public func onOtherThread(seconds: Double = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
  let done = Signal()
  Thread {
    body()
    done.fire()
  }.start()
  return done.wait(seconds: seconds)
}

/// Waits until every block enqueued on `queue` before this call has run, bounded.
public func drain(_ queue: DispatchQueue, seconds: Double = 10) -> Bool {
  let done = Signal()
  queue.async { done.fire() }
  return done.wait(seconds: seconds)
}

/// Waits until every block enqueued on the main queue before this call has run, without
/// blocking the main actor (which, under `swift test`, drains the main queue).
public func drainMainQueue() async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.main.async { continuation.resume() }
  }
}

extension Signal {
  /// Waits for `fire()`, bounded, on a thread of its own, so the cooperative pool stays free to
  /// run what will fire it.
  ///
  /// The default bound is generous: on a two-core machine the whole suite runs in parallel
  /// with stress tests whose threads keep both cores busy, and the cooperative pool (two
  /// threads there) that an async delivery needs can wait behind them for more than ten
  /// seconds. A regression that never fires still fails, after the bound.
  ///
  /// - Returns: `false` if `seconds` passed first.
  public func arrival(seconds: Double = 30) async -> Bool {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: self.wait(seconds: seconds)) }.start()
    }
  }
}
