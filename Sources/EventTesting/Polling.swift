/// Bounded polling, for conditions that nothing signals (an object's release).
enum Polling {
  /// Calls `probe` until it returns a value or `timeout` passes, sleeping a millisecond between
  /// calls.
  ///
  /// - Returns: The first value, or `nil` if `timeout` passed first.
  static func value<Value>(
    within timeout: Duration, _ probe: () -> Value?
  ) async -> Value? {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let value = probe() { return value }
      guard ContinuousClock.now < deadline else { return nil }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}
