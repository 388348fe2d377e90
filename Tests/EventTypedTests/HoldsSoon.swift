/// Polls `condition`, bounded, for what ends on another thread or actor a moment after the
/// code under test returns.
///
/// - Returns: `false` if it did not hold within `seconds`.
func holdsSoon(
  seconds: Double = 10, _ condition: @Sendable () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}
