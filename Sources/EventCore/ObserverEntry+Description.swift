import Dispatch

extension ObserverEntry {
  /// One line of an event's or a broadcaster's debug description: the registration's kind,
  /// where it runs, its priority when it has one, and where it was written.
  ///
  /// ```
  /// observer Screen, isolated to MainActor, priority 10, App/Screen.swift:12
  /// ```
  ///
  /// Reads only what the entry stored at registration (no weak load, no lock), so it is safe on
  /// any thread, about any registration.
  package var registrationDescription: String {
    var parts = [site.kindDescription, placeDescription]
    if priority != 0 { parts.append("priority \(priority)") }
    if let location = site.location { parts.append(location) }
    return parts.joined(separator: ", ")
  }

  /// Where the handler runs: its delivery, or the actor it is isolated to.
  private var placeDescription: String {
    if case .async(let isolation) = site.kind {
      // The entry only feeds the handler's queue on the posting thread; the handler itself runs
      // on its own isolation.
      return isolation.map { "isolated to \($0)" } ?? "nonisolated"
    }
    switch delivery.kind {
    case .synchronous: return "synchronous"
    case .queue(let queue): return "queue \"\(queue.label)\""
    case .mainActor(isolated: true): return "isolated to MainActor"
    case .mainActor(isolated: false): return "main actor"
    case .actor(let actor): return "isolated to \(actor.type)"
    }
  }
}
