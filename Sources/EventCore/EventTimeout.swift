/// The error a bounded wait throws when its time runs out first.
///
/// EventTyped's `Event.next(where:timeout:after:)`, EventConditions'
/// `NotificationReceiver.verified(timeout:after:)` and EventTesting's recorders throw it, with
/// the bound they were given, when nothing they wait for arrives in time:
///
/// ```swift
/// do {
///   let reply = try await replies.next(timeout: .seconds(2)) { send(request) }
///   show(reply)
/// } catch let error as EventTimeout {
///   print("no reply within", error.timeout)
/// }
/// ```
///
/// A wait that times out leaves nothing behind: its registration has ended and its timer has
/// stopped when the error is thrown.
public struct EventTimeout: Error, Sendable, Hashable {
  /// The bound that passed.
  public let timeout: Duration

  /// Creates the error for a wait bounded by `timeout`.
  ///
  /// - Parameter timeout: The bound that passed.
  public init(timeout: Duration) {
    self.timeout = timeout
  }
}

extension EventTimeout: CustomStringConvertible {
  /// `"timed out after 2.0 seconds"`.
  public var description: String {
    "timed out after \(timeout)"
  }
}
