import Foundation
import Synchronization

/// Runs each body on its own `Thread` (not the Dispatch pool, which a handful of busy loops can
/// starve) until `seconds` have passed, then waits for all of them, bounded.
///
/// Each body is called in a loop with its index until the time is up.
///
/// - Returns: `false` if the threads had not all finished `timeout` seconds after the deadline.
public func runThreads(
  _ bodies: [@Sendable () -> Void], seconds: Double, timeout: Double = 30
) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  let finished = DispatchGroup()
  for body in bodies {
    finished.enter()
    let thread = Thread {
      while Date() < deadline { body() }
      finished.leave()
    }
    thread.start()
  }
  return finished.wait(timeout: .now() + seconds + timeout) == .success
}
