import EventCore
public import Testing

/// A thread-safe log that handlers write to, for expecting which deliveries arrived and in
/// what order, across handlers, events and threads.
///
/// ```swift
/// let log = DeliveryLog<String>()
/// let tokens = [
///   Downloads.didFinish.subscribe { _ in log.record("badge") },
///   Downloads.didFinish.subscribe { _ in log.record("list") },
/// ]
/// Downloads.didFinish.post("a", 1)
/// await log.expect(["badge", "list"])  // registration order
/// ```
///
/// Thread-safe: any handler, on any thread or actor, may record.
public final class DeliveryLog<Entry: Sendable>: Sendable {
  private let storage = Lock<[Entry]>([])

  /// Creates an empty log.
  public init() {}

  /// Appends `entry`.
  public func record(_ entry: Entry) {
    storage.withLock { $0.append(entry) }
  }

  /// Everything recorded, in the order it was recorded.
  public var entries: [Entry] {
    storage.withLock { $0 }
  }

  /// How many entries were recorded.
  public var count: Int {
    storage.withLock { $0.count }
  }

  /// Expects that nothing was recorded; records an issue at the caller listing what was.
  ///
  /// Deliveries that `post` does not wait for (queued, main-actor, actor, async handlers) may
  /// still be on their way: call it after the event's `flush()`, or use
  /// ``expectNothing(after:_:sourceLocation:)-(Event<Payload>,_,_)`` (or its form for a
  /// channel), which flushes first.
  ///
  /// - Parameters:
  ///   - comment: Added to the issue.
  ///   - sourceLocation: Where the issue is recorded: the caller, by default.
  public func expectNothing(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let entries = entries
    guard !entries.isEmpty else { return }
    recordIssue("expected no delivery, recorded \(entries)", comment, at: sourceLocation)
  }
}

extension DeliveryLog where Entry: Equatable {
  /// Waits until `expected.count` entries are recorded, for at most `timeout`, then expects them
  /// to be exactly `expected`, in order; records an issue at the caller otherwise.
  ///
  /// - Parameters:
  ///   - expected: The entries, in the order they should have been recorded.
  ///   - timeout: How long to wait for them; 5 seconds unless given.
  ///   - comment: Added to the issue.
  ///   - sourceLocation: Where the issue is recorded: the caller, by default.
  public func expect(
    _ expected: [Entry], within timeout: Duration = .seconds(5), _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let recorded = await Polling.value(within: timeout) {
      let entries = self.entries
      return entries.count >= expected.count ? entries : nil
    }
    let entries = recorded ?? entries
    guard entries != expected else { return }
    recordIssue("expected \(expected), recorded \(entries)", comment, at: sourceLocation)
  }
}
