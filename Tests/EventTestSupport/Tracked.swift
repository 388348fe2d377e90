import Synchronization

/// An object that counts its deinits, for memory claims: tests hold it through a `weak`
/// reference and check it is `nil` once released.
public final class Tracked: Sendable {
  /// A label for failure messages.
  public let name: String
  private let onDeinit: (@Sendable () -> Void)?

  /// Creates an object that calls `onDeinit` from its `deinit`.
  public init(_ name: String = "observer", onDeinit: (@Sendable () -> Void)? = nil) {
    self.name = name
    self.onDeinit = onDeinit
  }

  deinit {
    onDeinit?()
  }
}

/// A thread-safe counter.
public final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  /// Creates a counter at zero.
  public init() {}

  /// Adds one and returns the new value.
  @discardableResult
  public func increment() -> Int {
    value.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Adds `amount`.
  public func add(_ amount: Int) {
    value.wrappingAdd(amount, ordering: .relaxed)
  }

  /// The current value.
  public var count: Int { value.load(ordering: .relaxed) }
}
