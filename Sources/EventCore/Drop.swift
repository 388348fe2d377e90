/// Payloads that a bounded ``Backlog`` dropped for one registration, with where that
/// registration was written.
///
/// Reports are coalesced, so a burst costs at most two: the first drop after the registration's
/// last call is reported at once, with a `count` of 1; the drops after it add up into one
/// report, made before the registration's next call or when it ends.
public struct Drop: Sendable, Hashable, CustomStringConvertible {
  /// The payloads dropped since this registration's last report.
  public let count: Int
  /// The `#fileID` of the call that made the registration.
  public let fileID: String
  /// The `#line` of the call that made the registration.
  public let line: Int

  /// A report of `count` payloads dropped for the registration written at `fileID`:`line`.
  public init(count: Int, fileID: String, line: Int) {
    self.count = count
    self.fileID = fileID
    self.line = line
  }

  /// `3 dropped for the registration at Feed/Screen.swift:42`.
  public var description: String {
    "\(count) dropped for the registration at \(fileID):\(line)"
  }
}
