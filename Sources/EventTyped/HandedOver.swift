import EventCore

/// What a buffering registration's consumer (an async handler's loop, a `values` stream) needs
/// to count the payloads an ``Replay/untilObserved`` event handed over as started when it starts
/// on them, not when they were buffered: so those still buffered when the registration ends go
/// back to the event's hold.
///
/// Made only for a registration that was handed something, so that every other consumer pays
/// nothing per payload.
struct HandedOver<Payload: Sendable>: Sendable {
  private let entry: ObserverEntry<Payload>
  private let count: Int

  /// The hand-over of `entry`, registered with `startsWhereConsumed()`; `nil` when it was
  /// handed nothing.
  init?(_ entry: ObserverEntry<Payload>) {
    let count = entry.handedOverCount
    guard count > 0 else { return nil }
    self.entry = entry
    self.count = count
  }

  /// Whether the payload the registration received in `position` was handed over.
  func covers(_ position: Int) -> Bool {
    position < count
  }

  /// Counts the payload the registration received in `position` (0 for the first) as started
  /// (or dropped by the consumer's own policy).
  ///
  /// - Returns: `false` when it went back to the event's hold first: skip it.
  func start(at position: Int) -> Bool {
    position >= count || entry.startHandedOver(at: position)
  }
}
