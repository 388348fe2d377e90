import EventCore

extension Broadcaster {
  /// Gives the channel of `protocolType` a threshold of its own for
  /// ``/EventCore/EventDiagnostics/registrationWarning`` and sends its line to `write` instead
  /// of standard error: for tests, which must not change the process-wide threshold under the
  /// tests that run beside them.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol whose channel to set; something must have registered for it.
  ///   - threshold: The most live registrations that print nothing; `nil` for never.
  ///   - write: Called with the line, on the registering thread, outside every lock.
  /// - Precondition: `protocolType` has a channel.
  package func warnOfRegistrations<P>(
    for protocolType: P.Type, above threshold: Int?,
    writingTo write: @escaping @Sendable (String) -> Void
  ) {
    guard let channel = existingChannel(for: ObjectIdentifier(P.self)) else {
      preconditionFailure("Broadcaster.warnOfRegistrations: nothing registered for \(P.self)")
    }
    channel.warnOfRegistrations(above: threshold, writingTo: write)
  }
}
