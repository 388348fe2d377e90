import Dispatch
import Foundation

/// A handler body that, once entered, keeps running until the test finishes it: for tests that
/// an operation on another thread returns while a handler is still running, never waiting for
/// it.
public final class RunningHandler: Sendable {
  /// Fires each time the body is entered.
  public let entered = Signal()
  private let release = Signal()

  /// Creates a body that has not been entered.
  public init() {}

  /// The handler's body: announces itself, then runs until ``finish()`` (or 30 s, so that a
  /// failing test does not leave a thread behind for good).
  public func run() {
    entered.fire()
    _ = release.wait(seconds: 30)
  }

  /// Lets one running body return.
  public func finish() {
    release.fire()
  }
}

/// Starts `post` on another thread, waits until it has entered `handler`, then runs `operation`
/// on a third thread while the handler is still running there.
///
/// - Returns: Whether `operation` returned within `seconds`, before the handler was finished.
///   `false` means it waited for the running handler (or deadlocked with it).
public func returnsWhileHandlerRuns(
  _ handler: RunningHandler, seconds: Double = 5, post: @escaping @Sendable () -> Void,
  _ operation: @escaping @Sendable () -> Void
) -> Bool {
  let posted = Signal()
  // A thread of its own, for the reason `onOtherThread` gives.
  Thread {
    post()
    posted.fire()
  }.start()
  guard handler.entered.wait() else { return false }
  let returned = onOtherThread(seconds: seconds, operation)
  handler.finish()
  _ = posted.wait()
  return returned
}
