/// An error thrown by a handler of an ``Event``, as its ``Event/errors`` channel receives it:
/// the error, and where the registration whose handler threw it was written.
///
/// ```swift
/// Downloads.didFinish.errors.subscribe { failure in
///   print("\(failure.fileID):\(failure.line): \(failure.error)")
/// }
/// .store(in: &subscriptions)
/// ```
public struct HandlerError: Error, Sendable, CustomStringConvertible {
  /// What the handler threw.
  public let error: any Error
  /// The file of the throwing registration, as `#fileID` writes it (`Module/File.swift`).
  public let fileID: String
  /// The line of the throwing registration.
  public let line: Int

  /// Wraps `error`, thrown by a handler registered at `fileID`:`line`.
  ///
  /// - Parameters:
  ///   - error: What the handler threw.
  ///   - fileID: Where the registration was written, as `#fileID` writes it.
  ///   - line: The line of the registration.
  public init(error: any Error, fileID: String, line: Int) {
    self.error = error
    self.fileID = fileID
    self.line = line
  }

  /// `Module/File.swift:line: error`: where the registration was written, then the error.
  public var description: String {
    "\(fileID):\(line): \(error)"
  }
}
