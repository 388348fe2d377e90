import EventCore
public import Testing

/// Watches an object without keeping it alive, to expect that it is released.
///
/// ```swift
/// var screen: Screen? = Screen()
/// let watch = ReleaseWatch(screen!)
/// screen?.show()
/// screen = nil
/// await watch.expectReleased()  // no registration kept it alive
/// ```
///
/// To check an object that a closure makes, in one call, use
/// ``expectReleased(within:_:sourceLocation:_:isolation:)``. Thread-safe.
public final class ReleaseWatch: Sendable {
  private let reference: WeakBox
  private let typeName: String

  /// Starts watching `object`, held weakly.
  ///
  /// - Parameter object: The object expected to be released.
  public init(_ object: AnyObject) {
    reference = WeakBox(object)
    typeName = String(describing: type(of: object))
  }

  /// Whether the object has been deallocated.
  public var isReleased: Bool {
    reference.object == nil
  }

  /// Waits until the object is deallocated, for at most `timeout`; records an issue at the
  /// caller if it is still alive then.
  ///
  /// A release that waits for a queued delivery (which holds what its handler captured until
  /// it runs) is waited for, within the bound.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; 1 second unless given.
  ///   - comment: Added to the issue.
  ///   - sourceLocation: Where the issue is recorded: the caller, by default.
  public func expectReleased(
    within timeout: Duration = .seconds(1), _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let released = await Polling.value(within: timeout) { isReleased ? true : nil }
    guard released == nil else { return }
    recordIssue(
      "expected \(typeName) to be released within \(timeout)", comment, at: sourceLocation)
  }
}

/// Makes an object with `make`, drops it, and expects it to be released within `timeout`;
/// records an issue at the caller if it is not: the one call for "nothing keeps it alive".
///
/// ```swift
/// await expectReleased {
///   let screen = Screen()
///   screen.startObserving()  // registrations made here must not retain it
///   return screen
/// }
/// ```
///
/// - Parameters:
///   - timeout: How long to wait for the release; 1 second unless given.
///   - comment: Added to the issue.
///   - sourceLocation: Where the issue is recorded: the caller, by default.
///   - make: Makes the object, and does with it what should not keep it alive. It runs on the
///     caller's actor, so it may make and touch what that actor isolates (a `@MainActor`
///     screen).
///   - isolation: The caller's actor, where `make` runs; leave the default.
/// - Throws: What `make` throws.
public func expectReleased(
  within timeout: Duration = .seconds(1), _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation, _ make: () throws -> AnyObject,
  isolation: isolated (any Actor)? = #isolation
) async rethrows {
  let watch = try ReleaseWatch(make())
  await watch.expectReleased(within: timeout, comment, sourceLocation: sourceLocation)
}
