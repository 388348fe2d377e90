import EventCore

extension Event: CustomDebugStringConvertible {
  /// The event's live registrations, in the order a post reaches them: who observes it, and
  /// from where.
  ///
  /// ```swift
  /// print(String(reflecting: Session.didLogin))
  /// ```
  ///
  /// A header names the payload type and the count, then each registration has a line with its
  /// kind (`closure`, `observer` and its type, `type`, `once`, `async`, `actor` and its type,
  /// or `stream` for a ``values`` stream or a wait the package made), where its handler runs
  /// (its delivery, or the actor it is isolated to), its priority when it has one, and the
  /// `#fileID` and `#line` of the call that made it:
  ///
  /// ```
  /// Event<String>, 2 registrations:
  ///   observer LoginScreen, isolated to MainActor, priority 10, App/LoginScreen.swift:14
  ///   closure, synchronous, App/Analytics.swift:31
  /// ```
  ///
  /// Meant for logs and the debugger, not for parsing: the format may change. Thread-safe; it
  /// takes no lock while it formats, and loads no observer isolated to an actor off that actor,
  /// so such a registration whose observer has died may still be listed until its actor learns
  /// of it, as for ``observerCount``.
  ///
  /// - Complexity: O(*n*) in the number of registrations.
  public var debugDescription: String {
    let lines = liveRegistrations().map { "  " + $0.registrationDescription }
    let count =
      switch lines.count {
      case 0: "no registrations"
      case 1: "1 registration"
      default: "\(lines.count) registrations"
      }
    let header = "Event<\(Payload.self)>, \(count)"
    return lines.isEmpty ? header : ([header + ":"] + lines).joined(separator: "\n")
  }

  /// The live registrations, in delivery order: the one place that reads the list for the
  /// description.
  private func liveRegistrations() -> [ObserverEntry<Payload>] {
    list.snapshot().filter(\.isAlive)
  }
}
