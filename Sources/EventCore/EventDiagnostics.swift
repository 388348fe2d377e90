import Synchronization

/// The process-wide thresholds past which the package tells you, on standard error, that a
/// consumer is falling behind or that registrations are piling up.
///
/// Each warning is one line, printed once per registration or channel, and names the sites
/// to look at: what Node's MaxListeners warning cannot say.
///
/// ```swift
/// EventDiagnostics.backlogWarning = 1_000   // sooner than the default
/// EventDiagnostics.registrationWarning = nil  // never
/// ```
///
/// Safe to read and set from any thread: each is an atomic behind a computed property.
public enum EventDiagnostics {
  // Int.min stands for nil, so that a post reads one word.
  private static let backlog = Atomic<Int>(10_000)
  private static let registrations = Atomic<Int>(10_000)

  /// When one registration's unbounded backlog passes this many waiting calls, one line goes
  /// to standard error with the event and the registration's `file:line`, once per
  /// registration. `nil`: never. Default 10,000.
  public static var backlogWarning: Int? {
    get { decode(backlog.load(ordering: .relaxed)) }
    set { backlog.store(encode(newValue), ordering: .relaxed) }
  }

  /// When one channel (an `Event`, a `KeyedEvent`'s key, a `Broadcaster`'s protocol, a
  /// center's name) has more live registrations than this, one line goes to standard error with
  /// the channel and the three sites that registered most (`file:line` and count), once per
  /// channel. `nil`: never. Default 10,000.
  public static var registrationWarning: Int? {
    get { decode(registrations.load(ordering: .relaxed)) }
    set { registrations.store(encode(newValue), ordering: .relaxed) }
  }

  /// ``backlogWarning`` as one word: `Int.max` for never.
  @inlinable package static var backlogThreshold: Int { backlogWarning ?? .max }

  /// ``registrationWarning`` as one word: `Int.max` for never.
  @inlinable package static var registrationThreshold: Int { registrationWarning ?? .max }

  private static func decode(_ value: Int) -> Int? {
    value == .min ? nil : value
  }

  private static func encode(_ value: Int?) -> Int {
    guard let value else { return .min }
    // `fatalError` rather than `precondition`, whose message optimized builds drop.
    guard value >= 0 else {
      fatalError("EventDiagnostics: a threshold must be 0 or more, or nil for never; got \(value)")
    }
    return value
  }
}
