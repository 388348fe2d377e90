/// How many calls a registration that runs later may have waiting, and which go when there are
/// more: a limit on the memory a slow consumer can make its producers use.
///
/// ```swift
/// let ticks = Event<Tick>(backlog: .dropOldest(100))  // a slow screen sees the newest 100
/// ```
///
/// A backlog is the calls queued for one registration that have not run yet: `.queue` and
/// `.mainActor` deliveries scheduled from elsewhere, calls to an actor's or an async handler's
/// registration, a `values` iterator's buffered payloads. A call that runs inline (a synchronous
/// handler, a main-actor handler posted to on the main actor) has no backlog and is never
/// dropped. Each registration has its own backlog: a slow one never holds another's calls.
///
/// A bounded backlog never blocks a poster. What it drops is never delivered, is counted in the
/// event's `drops`, and leaves the order of what is delivered intact (post order).
public struct Backlog: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline package enum Policy: Sendable, Hashable {
    case unbounded
    case dropOldest(Int)
    case dropNewest(Int)
  }

  @usableFromInline package let policy: Policy

  @inlinable init(_ policy: Policy) {
    self.policy = policy
  }

  /// Whether this is ``unbounded``: a pattern match, where `== .unbounded` calls the
  /// synthesized `==` on every registration.
  @inlinable package var isUnbounded: Bool {
    if case .unbounded = policy { return true }
    return false
  }

  // Computed and inlinable, not a `static let`: a default argument of every registration, which
  // would otherwise read a lazy global (a `swift_once` call) on each.
  /// No limit: every call waits its turn, however many there are (the default).
  ///
  /// Past ``EventDiagnostics/backlogWarning`` waiting calls, one line goes to standard error,
  /// naming the registration, once.
  @inlinable public static var unbounded: Backlog { Backlog(.unbounded) }

  /// Keeps the newest `limit` calls: a call queued when `limit` are waiting makes the oldest of
  /// them go, as `AsyncStream`'s `.bufferingNewest(limit)` does.
  ///
  /// For state, where only the latest matters: positions, progress, themes.
  ///
  /// - Parameter limit: The most calls that wait; at least 1, or the program stops with a
  ///   message that names the value.
  /// - Returns: The backlog that keeps the newest `limit`.
  public static func dropOldest(_ limit: Int) -> Backlog {
    Backlog(.dropOldest(checked(limit, "dropOldest")))
  }

  /// Keeps the oldest `limit` calls: a call queued when `limit` are waiting is refused, as
  /// `AsyncStream`'s `.bufferingOldest(limit)` does. The refused registration does not count
  /// as reached in what `post` returns.
  ///
  /// For work that must be done in order once started, where what comes later can be asked
  /// for again.
  ///
  /// - Parameter limit: The most calls that wait; at least 1, or the program stops with a
  ///   message that names the value.
  /// - Returns: The backlog that keeps the oldest `limit`.
  public static func dropNewest(_ limit: Int) -> Backlog {
    Backlog(.dropNewest(checked(limit, "dropNewest")))
  }

  private static func checked(_ limit: Int, _ name: String) -> Int {
    // `fatalError` rather than `precondition`, whose message optimized builds drop.
    guard limit >= 1 else {
      fatalError(
        "Backlog.\(name)(\(limit)): the limit must be at least 1 (use .unbounded for none)")
    }
    return limit
  }

  /// `.unbounded`, `.dropOldest(100)` or `.dropNewest(100)`.
  public var description: String {
    switch policy {
    case .unbounded: ".unbounded"
    case .dropOldest(let limit): ".dropOldest(\(limit))"
    case .dropNewest(let limit): ".dropNewest(\(limit))"
    }
  }
}
