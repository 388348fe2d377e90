/// The calls waiting for one registration that runs later, with its ``Backlog``'s rules: what
/// arrives, what is dropped, what is reported, and when a drain starts and stops.
///
/// A value with no lock and no side effects: ``Mailbox`` runs it under its lock and performs the
/// actions it returns after the lock (scheduling a drain, reporting drops, printing a warning),
/// so its rules are tested alone (`MailboxStateMachineTests`).
///
/// One drain at a time takes the calls in order (`isDraining`). Flush markers wait among the
/// payloads, in their place in the order, but are never dropped and never count against the
/// limit.
package struct MailboxStateMachine<Payload> {
  /// Waiting calls, oldest first from `head`; a slot is `nil` once taken or dropped, so that a
  /// dropped payload is released at once.
  private var items: ContiguousArray<MailboxItem<Payload>?> = []
  /// Each item's place in ``MainActorSchedule``'s order, for a mailbox drained through it; 0
  /// otherwise. In step with `items`.
  private var sequences: ContiguousArray<UInt64> = []
  private var head = 0
  /// No payload waits before this index (from `head`): what a drop of the oldest has already
  /// searched, so that a flood of drops costs O(1) each, not a scan of the slots it emptied.
  private var searchedUpTo = 0
  /// The payloads waiting, markers not counted.
  package private(set) var waiting = 0
  /// Whether a drain owns the mailbox: set by the arrival that starts one, cleared by the
  /// ``next()`` that finds it empty.
  package private(set) var isDraining = false
  private let limit: Int
  private let dropsOldest: Bool
  private var drops = DropTally()
  private var warned = false

  /// A mailbox with `backlog`'s limit.
  package init(backlog: Backlog) {
    switch backlog.policy {
    case .unbounded: (limit, dropsOldest) = (.max, false)
    case .dropOldest(let limit): (self.limit, dropsOldest) = (limit, true)
    case .dropNewest(let limit): (self.limit, dropsOldest) = (limit, false)
    }
  }

  /// What the caller of ``enqueue(_:warningAbove:)`` does after the lock.
  package struct Arrival: Equatable {
    /// Whether the payload waits for its call: `false` when `.dropNewest` refused it.
    package var accepted = true
    /// Whether the caller starts the drain.
    package var startsDrain = false
    /// Whether the payload made a drop: the oldest went (`.dropOldest`) or it was refused.
    package var dropped = false
    /// A count of drops to report now: the first of a burst.
    package var report: Int?
    /// The number of waiting payloads to warn about: this unbounded mailbox just passed the
    /// threshold, for the first time.
    package var warning: Int?
  }

  /// Adds `payload` behind the waiting calls, dropping as the backlog says.
  ///
  /// - Parameters:
  ///   - payload: The payload to deliver.
  ///   - threshold: ``EventDiagnostics/backlogWarning``, read by the caller (`Int.max` for
  ///     never); only an unbounded mailbox warns.
  ///   - sequence: The payload's place in ``MainActorSchedule``'s order, if the mailbox drains
  ///     through it.
  /// - Returns: What the caller does after the lock.
  package mutating func enqueue(
    _ payload: Payload, warningAbove threshold: Int, sequence: UInt64 = 0
  ) -> Arrival {
    var arrival = Arrival()
    if waiting == limit {
      arrival.dropped = true
      if dropsOldest {
        dropOldestPayload()
      } else {
        arrival.accepted = false
      }
      arrival.report = drops.drop()
    }
    if arrival.accepted {
      items.append(.payload(payload))
      sequences.append(sequence)
      waiting += 1
      if limit == .max && waiting > threshold && !warned {
        warned = true
        arrival.warning = waiting
      }
    }
    startDrainIfIdle(&arrival)
    return arrival
  }

  /// Adds a replayed payload behind the waiting calls: replay is not a backlog, so it neither
  /// counts against the limit nor is ever dropped.
  package mutating func enqueueReplayed(_ payload: Payload, sequence: UInt64 = 0) -> Arrival {
    var arrival = Arrival()
    items.append(.replayed(payload))
    sequences.append(sequence)
    startDrainIfIdle(&arrival)
    return arrival
  }

  private mutating func startDrainIfIdle(_ arrival: inout Arrival) {
    if !isDraining && !items.isEmpty {
      isDraining = true
      arrival.startsDrain = true
    }
  }

  /// Queues `done` behind the waiting calls.
  ///
  /// - Returns: `false` when nothing waits and no drain runs, so that the caller calls `done`
  ///   itself: everything has been delivered.
  package mutating func enqueueMarker(
    _ done: @escaping @Sendable () -> Void, sequence: UInt64 = 0
  ) -> Bool {
    guard isDraining else { return false }
    items.append(.flush(done))
    sequences.append(sequence)
    return true
  }

  /// What a drain does next.
  package enum Next {
    /// Report `report` drops (if any), then call the handler with the payload.
    case payload(Payload, report: Int?)
    /// Call the marker.
    case marker(@Sendable () -> Void)
    /// Nothing waits: the drain has ended, and the next arrival starts another.
    case idle
  }

  /// Takes the oldest waiting call, for the drain.
  package mutating func next() -> Next {
    while head < items.count {
      let item = items[head]
      items[head] = nil
      head += 1
      switch item {
      case .payload(let payload):
        waiting -= 1
        let report = drops.call()
        compactIfMostlyTaken()
        return .payload(payload, report: report)
      case .replayed(let payload):
        compactIfMostlyTaken()
        return .payload(payload, report: nil)
      case .flush(let done):
        compactIfMostlyTaken()
        return .marker(done)
      case nil:
        continue
      }
    }
    items.removeAll(keepingCapacity: true)
    sequences.removeAll(keepingCapacity: true)
    head = 0
    searchedUpTo = 0
    isDraining = false
    return .idle
  }

  /// The place in ``MainActorSchedule``'s order of the oldest waiting call, if any.
  package var headSequence: UInt64? {
    var index = head
    while index < items.count {
      if items[index] != nil { return sequences[index] }
      index += 1
    }
    return nil
  }

  /// Takes the oldest waiting call if its place in ``MainActorSchedule``'s order is
  /// `sequence`, for a mailbox drained through the schedule; a drop may have taken it first.
  ///
  /// - Returns: What to run (`.idle` when the head is another call, or nothing waits), and the
  ///   place of the call that then waits first: where to schedule the mailbox again, `nil` once
  ///   it is empty and its drain has ended.
  package mutating func next(expecting sequence: UInt64) -> (Next, following: UInt64?) {
    guard let first = headSequence else {
      _ = next()  // Ends the drain.
      return (.idle, nil)
    }
    guard first == sequence else { return (.idle, first) }
    let taken = next()
    guard let following = headSequence else {
      _ = next()
      return (taken, nil)
    }
    return (taken, following)
  }

  /// Drops the oldest waiting payload, skipping the markers before it.
  private mutating func dropOldestPayload() {
    for index in max(head, searchedUpTo)..<items.count {
      guard case .payload = items[index] else { continue }
      items[index] = nil
      waiting -= 1
      searchedUpTo = index + 1
      // Emptied slots at the front are skipped now, rather than by every later drain.
      while head < items.count, items[head] == nil { head += 1 }
      compactIfMostlyTaken()
      return
    }
  }

  /// Moves the waiting calls to the front once most of the buffer is taken slots, so that it
  /// stays proportional to what waits: amortised O(1) per call.
  private mutating func compactIfMostlyTaken() {
    guard head >= 32 && head * 2 >= items.count else { return }
    items.removeFirst(head)
    sequences.removeFirst(head)
    searchedUpTo = max(0, searchedUpTo - head)
    head = 0
  }
}

/// What waits in a mailbox: a payload to deliver (posted, or replayed), or the marker of a
/// flush, called in its place in the order.
package enum MailboxItem<Payload> {
  case payload(Payload)
  case replayed(Payload)
  case flush(@Sendable () -> Void)
}

extension MailboxItem: Sendable where Payload: Sendable {}
