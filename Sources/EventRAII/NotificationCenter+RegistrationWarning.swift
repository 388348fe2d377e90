import EventCore
package import Foundation

extension NotificationCenter {
  /// Gives the channel of `name` on this center a threshold of its own for
  /// ``/EventCore/EventDiagnostics/registrationWarning`` and sends its line to `write` instead
  /// of standard error: for tests, which must not change the process-wide threshold under the
  /// tests that run beside them.
  ///
  /// Applies to the channel as it is now, which an observation of `name` keeps: its observers
  /// of every sender and each sender's group. A channel made after its observations all ended
  /// compares with the process-wide threshold again.
  ///
  /// - Parameters:
  ///   - name: The name whose channel to set, or `nil` for that of every notification.
  ///   - threshold: The most live registrations that print nothing; `nil` for never.
  ///   - write: Called with the line, on the registering thread, outside every lock.
  /// - Precondition: Something observes `name` on this center.
  package func warnOfRegistrations(
    named name: Notification.Name?, above threshold: Int?,
    writingTo write: @escaping @Sendable (String) -> Void
  ) {
    let channel = ChannelRegistry.shared.channels(of: self, reachedBy: name)
      .first { $0.key.name == name }
    guard let channel else {
      let channel = NotificationChannel.describe(name)
      preconditionFailure("NotificationCenter.warnOfRegistrations: \(channel) has no observations")
    }
    for list in channel.lists { list.warnOfRegistrations(above: threshold, writingTo: write) }
  }
}
