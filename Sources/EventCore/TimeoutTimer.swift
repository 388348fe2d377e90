import Dispatch

/// A timer for a bounded wait: calls `expire` once `duration` has passed, unless it is ended
/// first.
///
/// The waits of the package start one when they suspend and ``end()`` it before they return,
/// whatever ended the wait, so that nothing of the wait outlives it.
///
/// Every timer of the process is an entry in one deadline heap, served by one dispatch timer
/// (``TimeoutScheduler``): a server that waits for 10,000 replies with a timeout each would
/// otherwise run 10,000 sleeping tasks, each created, cancelled and awaited, several times the
/// cost of the wait itself.
@usableFromInline package struct TimeoutTimer: Sendable {
  @usableFromInline let entry: TimeoutScheduler.Entry

  /// Starts the timer.
  ///
  /// - Parameters:
  ///   - duration: How long to wait, on the continuous clock.
  ///   - expire: Called at most once, off any actor, when `duration` has passed before
  ///     ``end()``; it runs on the timers' one serial queue, so it must not block. One already
  ///     running when `end()` is called may finish after `end()` returns: each caller's `expire`
  ///     only offers a timeout to a wait whose first outcome wins, so a late one does nothing.
  @usableFromInline package init(_ duration: Duration, expire: @escaping @Sendable () -> Void) {
    entry = TimeoutScheduler.shared.start(duration, expire: expire)
  }

  /// Stops the timer and releases its `expire` (unless it is running), without waiting: a wait
  /// never waits for the timers' queue.
  @usableFromInline package nonisolated(nonsending) func end() async {
    TimeoutScheduler.shared.end(entry)
  }
}

/// The process's pending ``TimeoutTimer``s: a min-heap of deadlines under a lock and one
/// dispatch timer source armed for the earliest.
///
/// Starting a timer pushes its entry (O(1) for deadlines that come in order, as equal timeouts
/// do) and re-arms the source only when it is now the earliest. Ending one releases its closure at
/// once (what it captured is the memory that matters) and leaves its entry in the heap, marked
/// done, O(1): removing an entry from the middle would move the last, latest deadline into its
/// place and sift it all the way down, O(log *n*) per wait. Ended entries are dropped when they
/// come to the top, or all at once when they outnumber the pending ones (O(*n*) once per O(*n*)
/// ends), so the heap stays within twice the pending timers plus a small constant. The source is
/// not re-armed when the earliest entry ends: it fires at the old deadline, finds nothing due and
/// re-arms for the new earliest, so a steady stream of waits costs no dispatch call per wait.
@usableFromInline package final class TimeoutScheduler: @unchecked Sendable {
  // `@unchecked Sendable`: the heap is behind `state`'s Lock, and `source`, set up in `init`, is
  // scheduled only under that lock.
  package static let shared = TimeoutScheduler()

  /// One timer. `phase` is guarded by the scheduler's lock, and `expire` too while the entry is
  /// pending; once done or firing, only the caller that moved it there reads or writes
  /// `expire`.
  @usableFromInline package final class Entry: @unchecked Sendable {
    // `@unchecked Sendable`: `phase` changes only under the scheduler's Lock, and
    // `expire` as they say; the rest is immutable.
    /// Nanoseconds after the scheduler's origin.
    let deadline: Int64
    /// Replaced by a closure that captures nothing when the timer is ended or fires, so that
    /// what it captured is released then, not when the entry leaves the heap. Not an optional:
    /// a function in an optional is stored reabstracted, an allocation per conversion.
    var expire: @Sendable () -> Void
    var phase = Phase.pending

    init(deadline: Int64, expire: @escaping @Sendable () -> Void) {
      self.deadline = deadline
      self.expire = expire
    }
  }

  enum Phase {
    case pending
    case firing
    case done
  }

  /// A heap slot: the deadline is copied beside the entry so that sifting compares integers in
  /// the array, without loading each entry.
  private struct Node {
    let deadline: Int64
    let entry: Entry
  }

  private struct State {
    var heap: [Node] = []
    /// The deadline the source is armed for, if any.
    var armed: Int64?
    /// Entries in `heap` that were ended before their deadline (phase `.done`).
    var ended = 0
  }

  private let state = Lock(State())
  private let source: any DispatchSourceTimer
  /// The instant deadlines count from.
  private let origin = ContinuousClock.now

  private init() {
    source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Events.TimeoutTimer"))
    source.setEventHandler { [unowned self] in self.fire() }
    source.activate()
  }

  func start(_ duration: Duration, expire: @escaping @Sendable () -> Void) -> Entry {
    let entry = Entry(deadline: nanoseconds(origin.duration(to: .now) + duration), expire: expire)
    state.withLock { state in
      state.heap.append(Node(deadline: entry.deadline, entry: entry))
      Self.siftUp(state.heap.count - 1, in: &state.heap)
      if state.armed.map({ entry.deadline < $0 }) ?? true { arm(&state, for: entry.deadline) }
    }
    return entry
  }

  /// Ends `entry` unless it fired: marks it done, leaving it in the heap, and releases its
  /// closure after the lock (what the closure captured may have a deinit). Never waits for an
  /// `expire` that is running: resuming a waiting `end()` from the timers' queue would hand a
  /// continuation across threads for no caller's benefit (every `expire` is idempotent).
  func end(_ entry: Entry) {
    let phase = state.withLock { state -> Phase in
      let phase = entry.phase
      guard phase == .pending else { return phase }
      entry.phase = .done
      state.ended += 1
      if state.ended > 64, state.ended * 2 > state.heap.count { Self.dropEnded(&state) }
      return phase
    }
    guard phase == .pending else { return }
    // After the lock: the entry is done, so nothing else reads `expire` any more. (Taking the
    // closure out under the lock and returning it would reabstract it through the lock's
    // generic result, an allocation per call.)
    entry.expire = Self.ended
  }

  /// The source's handler: calls the `expire` of every entry that is due, outside the lock, and
  /// re-arms for the earliest left.
  private func fire() {
    let now = nanoseconds(origin.duration(to: .now))
    let due = state.withLock { state -> [(Entry, @Sendable () -> Void)] in
      state.armed = nil
      var due: [(Entry, @Sendable () -> Void)] = []
      while let first = state.heap.first, first.deadline <= now || first.entry.phase == .done {
        Self.removeFirst(from: &state.heap)
        guard first.entry.phase == .pending else {
          state.ended -= 1
          continue
        }
        first.entry.phase = .firing
        due.append((first.entry, first.entry.expire))
        first.entry.expire = Self.ended
      }
      if let next = state.heap.first { arm(&state, for: next.deadline) }
      return due
    }
    for (entry, expire) in due {
      expire()
      state.withLock { _ in entry.phase = .done }
    }
  }

  /// Schedules the source for `deadline`, under the lock so that arming follows the heap's order.
  private func arm(_ state: inout State, for deadline: Int64) {
    state.armed = deadline
    let delay = max(deadline - nanoseconds(origin.duration(to: .now)), 0)
    source.schedule(deadline: .now() + .nanoseconds(Int(delay)))
  }

  /// `duration` in nanoseconds, saturated: a deadline centuries away is as good as none.
  private func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? .min / 2 : .max / 2 }
    return min(max(whole, .min / 2), .max / 2) + attoseconds / 1_000_000_000
  }

  /// What an ended or fired entry's `expire` becomes: it captures nothing.
  private static let ended: @Sendable () -> Void = {}

  private static func removeFirst(from heap: inout [Node]) {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(0, in: &heap)
  }

  /// Drops every ended entry from the heap and restores its order, O(*n*).
  private static func dropEnded(_ state: inout State) {
    state.heap.removeAll { $0.entry.phase == .done }
    state.ended = 0
    // Timeouts of one duration come in deadline order, so the heap is usually sorted, and a
    // sorted array is a heap: the sifts below then move nothing.
    var index = state.heap.count / 2
    while index > 0 {
      index -= 1
      siftDown(index, in: &state.heap)
    }
  }

  private static func siftUp(_ index: Int, in heap: inout [Node]) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private static func siftDown(_ index: Int, in heap: inout [Node]) {
    var parent = index
    while true {
      var smallest = parent
      let left = 2 * parent + 1
      if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
      let right = left + 1
      if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
