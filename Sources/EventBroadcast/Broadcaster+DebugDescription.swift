import EventCore

extension Broadcaster: CustomDebugStringConvertible {
  /// The broadcaster's live registrations, protocol by protocol, each in the order a
  /// notification calls them: who observes what, and from where.
  ///
  /// ```swift
  /// print(String(reflecting: Broadcaster.shared))
  /// ```
  ///
  /// A header gives the count, then each registration has a line with the protocol it was
  /// registered for, the observer's type, where its calls run (its delivery, or the actor it is
  /// isolated to), its priority when it has one, and the `#fileID` and `#line` of the call that
  /// made it. Protocols come in the order their first registration was made:
  ///
  /// ```
  /// Broadcaster, 2 registrations:
  ///   Update: observer TitleView, isolated to MainActor, App/TitleView.swift:8
  ///   Update: observer Cache, queue "cache", App/Cache.swift:21
  /// ```
  ///
  /// Meant for logs and the debugger, not for parsing: the format may change. Thread-safe; it
  /// takes no lock while it formats, and loads no observer isolated to an actor off that actor,
  /// so such a registration whose observer has died may still be listed until its actor learns
  /// of it, as for ``observerCount(_:)-swift.method``.
  ///
  /// - Complexity: O(*n*) in the number of registrations.
  public var debugDescription: String {
    let lines = liveRegistrations().map { type, entry in
      "  \(type): " + entry.registrationDescription
    }
    let count =
      switch lines.count {
      case 0: "no registrations"
      case 1: "1 registration"
      default: "\(lines.count) registrations"
      }
    let header = "Broadcaster, \(count)"
    return lines.isEmpty ? header : ([header + ":"] + lines).joined(separator: "\n")
  }

  /// The live registrations with the protocol of each, channel by channel in creation order:
  /// the one place that reads the channels for the description.
  private func liveRegistrations() -> [(any Any.Type, ObserverEntry<Never>)] {
    protocols.withLock { $0 }.flatMap { type, channel in
      channel.snapshot().filter(\.isAlive).map { (type, $0) }
    }
  }
}
