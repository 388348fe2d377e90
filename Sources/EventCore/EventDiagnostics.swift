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
  // Int.min stands for nil, so that a post reads one word. The registrations' threshold is
  // `registrationLimit`'s, which each list refers to (ObserverList+RegistrationWarning.swift).
  private static let backlog = Atomic<Int>(10_000)

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
  ///
  /// The line, wrapped here, goes out in one write:
  ///
  /// ```text
  /// Events: Event<String> has 10001 live registrations (EventDiagnostics.registrationWarning
  /// is 10000); most were registered at App/Screen.swift:42 (9000), App/Cell.swift:7 (900),
  /// App/Log.swift:3 (101). This is printed once per channel.
  /// ```
  ///
  /// Registrations the package makes for you (`values` streams, waits) count under `(made by
  /// the package)`. Observers that died and were not purged yet do not count: the channel
  /// counts its live registrations before it prints. "Once" is per list of registrations: a
  /// `KeyedEvent`'s key whose registrations all end loses its list, and a list made for the key
  /// later may warn again.
  ///
  /// A registration pays one relaxed load and one compare for it; the sites are counted only
  /// when the threshold is crossed, outside every lock.
  public static var registrationWarning: Int? {
    get { registrationLimit.value }
    set { registrationLimit.threshold.store(encode(newValue), ordering: .relaxed) }
  }

  /// ``backlogWarning`` as one word: `Int.max` for never.
  @inlinable package static var backlogThreshold: Int { backlogWarning ?? .max }

  /// A threshold from its word: `Int.min` is `nil`.
  static func decode(_ value: Int) -> Int? {
    value == .min ? nil : value
  }

  /// A threshold as one word: `nil` is `Int.min`.
  ///
  /// - Precondition: `value` is `nil` or at least 0.
  static func encode(_ value: Int?) -> Int {
    guard let value else { return .min }
    // `fatalError` rather than `precondition`, whose message optimized builds drop.
    guard value >= 0 else {
      fatalError("EventDiagnostics: a threshold must be 0 or more, or nil for never; got \(value)")
    }
    return value
  }
}
