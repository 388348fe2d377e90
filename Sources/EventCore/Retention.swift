/// How an ``ObserverList`` retains its posts: the rules of ``Retention``.
@usableFromInline package enum RetentionPolicy: Sendable, Hashable {
  case none
  case last(Int)
  case untilObserved
}

/// The payloads an ``ObserverList`` keeps for registrations made later: its replay buffer, as a
/// plain value that the list keeps under its lock.
///
/// The rules, for a list that retains:
/// - `.last(n)`: every post is recorded; the newest `n` are kept, the oldest dropped first.
/// - `.untilObserved`: a post made while the list has no registration is held (all of them, in
///   order) instead of delivered; the next registration takes them all (a once-registration,
///   only the oldest). A post made while a registration exists is delivered, not held. A taken
///   payload counts as handed over only once a handler starts on it: those the registration
///   drops unrun (cancelled, or its observer gone, before its queued replay runs) are given
///   back to the front of the hold (``giveBack(_:)``), ahead of the posts held since.
@usableFromInline package struct Retention<Payload> {
  @usableFromInline package let policy: RetentionPolicy
  /// The payloads kept; with `.last(n)`, a ring of at most `n` whose oldest is at `start`.
  @usableFromInline var storage: ContiguousArray<Payload>
  @usableFromInline var start: Int

  @inlinable package init(_ policy: RetentionPolicy) {
    self.policy = policy
    self.storage = []
    self.start = 0
  }

  /// The newest payload kept.
  @usableFromInline package var latest: Payload? {
    guard !storage.isEmpty else { return nil }
    return storage[(start + storage.count - 1) % storage.count]
  }

  /// Everything kept, oldest first.
  @usableFromInline package var payloads: ContiguousArray<Payload> {
    guard start != 0 else { return storage }
    return ContiguousArray(storage[start...]) + storage[..<start]
  }

  /// Records a post delivered to the registrations. With `.last(n)` it is kept, and the payload
  /// it replaces is returned, for the caller to release after its lock.
  ///
  /// - Complexity: O(1); no allocation once `n` payloads are kept.
  @usableFromInline package mutating func record(_ payload: Payload) -> Payload? {
    guard case .last(let count) = policy else { return nil }
    guard storage.count == count else {
      storage.append(payload)
      return nil
    }
    let replaced = storage[start]
    storage[start] = payload
    start = (start + 1) % count
    return replaced
  }

  /// Holds a post that no registration is there to receive (`.untilObserved`).
  @usableFromInline package mutating func hold(_ payload: Payload) {
    storage.append(payload)
  }

  /// Holds again, at the front and in order, payloads handed to a registration that dropped
  /// them before a handler started on them (`.untilObserved`): they are older than every post
  /// held since.
  ///
  /// - Complexity: O(*n* + *m*) over the *n* payloads held and the *m* given back.
  @usableFromInline package mutating func giveBack(_ payloads: ContiguousArray<Payload>) {
    guard !payloads.isEmpty else { return }
    storage.insert(contentsOf: payloads, at: 0)
  }

  /// What a new registration replays: everything kept, oldest first. With `.untilObserved` the
  /// held payloads are handed over (a once-registration takes only the oldest).
  @usableFromInline package mutating func replay(once: Bool) -> ContiguousArray<Payload> {
    switch policy {
    case .none:
      return []
    case .last:
      guard once else { return payloads }
      return storage.isEmpty ? [] : [storage[start]]
    case .untilObserved:
      guard once else { return clear() }
      return storage.isEmpty ? [] : [storage.removeFirst()]
    }
  }

  /// Drops everything kept, returned for the caller to release after its lock.
  @usableFromInline package mutating func clear() -> ContiguousArray<Payload> {
    let kept = payloads
    storage = []
    start = 0
    return kept
  }
}
