import Foundation

/// A post parked in a handler on a thread of its own, so that it holds the observer list while
/// a test cancels, registers or posts elsewhere; every wait is bounded.
///
/// Register ``handler`` first, then ``start(_:)`` the post, then ``release()`` it.
public final class ParkedPost: Sendable {
  private let parked = Signal()
  private let resume = Signal()
  private let returned = Signal()

  /// Creates a parking handler that has parked nothing yet.
  public init() {}

  /// A nonisolated handler that parks the post of `1` until ``release()``; other values pass.
  public var handler: @Sendable (Int) -> Void {
    { [parked, resume] value in
      guard value == 1 else { return }
      parked.fire()
      _ = resume.wait()
    }
  }

  /// Runs `post` (which posts `1`) on a thread of its own and waits until it is parked.
  ///
  /// - Returns: `false` if it did not park in time.
  public func start(_ post: @escaping @Sendable () -> Void) -> Bool {
    Thread { [returned] in
      post()
      returned.fire()
    }.start()
    return parked.wait()
  }

  /// Lets the parked post go on and waits until it has returned.
  ///
  /// - Returns: `false` if it did not return in time.
  public func release() -> Bool {
    resume.fire()
    return returned.wait()
  }
}
