/// A weak reference to check that an object was released: `Weak(object).object == nil`.
///
/// A struct rather than `weak let`, which Swift accepts only from 6.2.3 on (SE-0481), and
/// rather than a local `weak var`, which Swift 6.3 flags as never mutated.
public struct Weak<Object: AnyObject> {
  /// The object, or `nil` once it has been deallocated.
  public weak var object: Object?

  /// Creates a weak reference to `object`.
  public init(_ object: Object?) {
    self.object = object
  }
}
extension Weak: Sendable where Object: Sendable {}

extension Weak where Object: Sendable {
  /// Waits, bounded, until the object is deallocated: for an object that a task finishing on
  /// another thread may hold for a moment after the code under test returns.
  ///
  /// - Returns: `false` if it is still alive after `seconds`.
  public func isReleased(seconds: Double = 5) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while object != nil {
      guard ContinuousClock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
  }
}
