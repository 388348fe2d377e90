import EventCore

extension Event {
  /// Gives this event a threshold of its own for
  /// ``/EventCore/EventDiagnostics/registrationWarning`` and sends its line to `write` instead
  /// of standard error: for tests, which must not change the process-wide threshold under the
  /// tests that run beside them.
  ///
  /// - Parameters:
  ///   - threshold: The most live registrations that print nothing; `nil` for never.
  ///   - write: Called with the line, on the registering thread, outside every lock.
  package func warnOfRegistrations(
    above threshold: Int?, writingTo write: @escaping @Sendable (String) -> Void
  ) {
    list.warnOfRegistrations(above: threshold, writingTo: write)
  }
}

extension KeyedEvent.Channel {
  /// Gives this key's list of registrations a threshold of its own, as
  /// ``Event/warnOfRegistrations(above:writingTo:)`` does.
  ///
  /// Applies to the list the key has now, which a registration other than a `next` made: a
  /// list made for the key after its registrations all ended compares with the process-wide
  /// threshold again.
  ///
  /// - Precondition: The key has a list.
  package func warnOfRegistrations(
    above threshold: Int?, writingTo write: @escaping @Sendable (String) -> Void
  ) {
    guard let event = keyed.event(of: key) else {
      preconditionFailure("KeyedEvent.warnOfRegistrations: key \(key) has no registrations")
    }
    event.warnOfRegistrations(above: threshold, writingTo: write)
  }
}
