/// A timer for a bounded wait: calls `expire` once `duration` has passed, unless it is ended
/// first.
///
/// The waits of the package start one when they suspend and ``end()`` it before they return,
/// whatever ended the wait, so that no task outlives the wait.
package struct TimeoutTimer: Sendable {
  private let task: Task<Void, Never>

  /// Starts the timer.
  ///
  /// - Parameters:
  ///   - duration: How long to wait, on the continuous clock.
  ///   - expire: Called once, off any actor, when `duration` has passed first; never after
  ///     ``end()`` has returned.
  package init(_ duration: Duration, expire: @escaping @Sendable () -> Void) {
    task = Task {
      // A cancelled sleep throws: the wait ended first.
      guard (try? await Task.sleep(for: duration)) != nil else { return }
      expire()
    }
  }

  /// Stops the timer and waits for its task to finish, which it does at once when it has not
  /// fired: a cancelled sleep returns without waiting for its deadline.
  package func end() async {
    task.cancel()
    await task.value
  }
}
