import EventCore

/// A thread-safe log of values that handlers record, for asserting order and counts.
public final class Recorder<Value: Sendable>: Sendable {
  private let storage = Lock<[Value]>([])

  /// Creates an empty log.
  public init() {}

  /// Appends `value`.
  public func record(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  /// Everything recorded so far, in order.
  public var values: [Value] { storage.withLock { $0 } }

  /// How many values were recorded.
  public var count: Int { storage.withLock { $0.count } }
}
