/// One condition of a ``NotificationReceiver``: a name that must arrive a number of times.
///
/// A receiver is verified when each of its conditioners has had `minCount` arrivals in the
/// current round (or was ignored). Two conditioners are equal when their names and minimum
/// counts are.
///
/// ```swift
/// let receiver = NotificationReceiver()
/// receiver.add(NotificationConditioner("profile"))
/// receiver.add(NotificationConditioner("messages", minCount: 3))
/// ```
///
/// ### Threading
/// A value type; safe to create and pass anywhere.
public struct NotificationConditioner: Sendable, Hashable {
  /// The name whose arrivals the conditioner counts.
  public let name: String

  /// How many arrivals of ``name`` a round needs; at least 1.
  public let minCount: Int

  /// Creates a conditioner that needs `minCount` arrivals of `name` per round.
  ///
  /// A `minCount` below 1 is a programming error: it stops the program with a message naming
  /// the conditioner, because a condition that needs no arrival cannot be told apart from one
  /// that is already met.
  ///
  /// - Parameters:
  ///   - name: The name to count, as passed to ``NotificationReceiver/check(_:)``.
  ///   - minCount: Arrivals needed per round. Must be at least 1; the default is 1.
  public init(_ name: String, minCount: Int = 1) {
    // `fatalError` rather than `precondition`, whose message optimized builds drop.
    guard minCount >= 1 else {
      fatalError(
        "NotificationConditioner(\"\(name)\", minCount: \(minCount)): minCount must be at least 1")
    }
    self.name = name
    self.minCount = minCount
  }
}
