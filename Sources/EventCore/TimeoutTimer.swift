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
  ///   - expire: Called once, off any actor, when `duration` has passed first; never after
  ///     ``end()`` has returned. It runs on the timers' one serial queue, so it should not block.
  @usableFromInline package init(_ duration: Duration, expire: @escaping @Sendable () -> Void) {
    entry = TimeoutScheduler.shared.start(duration, expire: expire)
  }

  /// Stops the timer. Returns at once unless `expire` is running, in which case it waits for it
  /// to return.
  @usableFromInline package nonisolated(nonsending) func end() async {
    await TimeoutScheduler.shared.end(entry)
  }
}

/// The process's pending ``TimeoutTimer``s: a min-heap of deadlines under a lock and one
/// dispatch timer source armed for the earliest.
///
/// Starting a timer pushes its entry (O(1) for deadlines that come in order, as equal timeouts
/// do) and re-arms the source only when it is now the earliest; ending one removes it from the
/// heap by its index, O(log *n*), so ended timers leave nothing behind. The source is not
/// re-armed when the earliest entry ends: it fires at the old deadline, finds nothing due and
/// re-arms for the new earliest, so a steady stream of waits costs no dispatch call per wait.
@usableFromInline package final class TimeoutScheduler: @unchecked Sendable {
  // `@unchecked Sendable`: the heap is behind `state`'s Lock, and `source`, set up in `init`, is
  // scheduled only under that lock.
  package static let shared = TimeoutScheduler()

  /// One timer. `index`, `phase` and `waiters` are guarded by the scheduler's lock.
  @usableFromInline package final class Entry: @unchecked Sendable {
    // `@unchecked Sendable`: `index`, `phase` and `waiters` change only under the scheduler's
    // Lock; the rest is immutable.
    /// Nanoseconds after the scheduler's origin.
    let deadline: Int64
    let expire: @Sendable () -> Void
    /// The entry's position in the heap while pending.
    var index = -1
    var phase = Phase.pending
    /// `end()` calls waiting for `expire` to return.
    var waiters: [UnsafeContinuation<Void, Never>] = []

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
      entry.index = state.heap.count
      state.heap.append(Node(deadline: entry.deadline, entry: entry))
      Self.siftUp(entry.index, in: &state.heap)
      if state.armed.map({ entry.deadline < $0 }) ?? true { arm(&state, for: entry.deadline) }
    }
    return entry
  }

  nonisolated(nonsending) func end(_ entry: Entry) async {
    let firing = state.withLock { state -> Bool in
      switch entry.phase {
      case .pending:
        Self.remove(at: entry.index, from: &state.heap)
        entry.phase = .done
        return false
      case .firing: return true
      case .done: return false
      }
    }
    guard firing else { return }
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let done = state.withLock { _ -> Bool in
        guard entry.phase != .done else { return true }
        entry.waiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// The source's handler: calls the `expire` of every entry that is due, outside the lock, and
  /// re-arms for the earliest left.
  private func fire() {
    let now = nanoseconds(origin.duration(to: .now))
    let due = state.withLock { state -> [Entry] in
      state.armed = nil
      var due: [Entry] = []
      while let first = state.heap.first, first.deadline <= now {
        Self.remove(at: 0, from: &state.heap)
        first.entry.phase = .firing
        due.append(first.entry)
      }
      if let next = state.heap.first { arm(&state, for: next.deadline) }
      return due
    }
    for entry in due {
      entry.expire()
      let waiters = state.withLock { _ -> [UnsafeContinuation<Void, Never>] in
        entry.phase = .done
        defer { entry.waiters = [] }
        return entry.waiters
      }
      for waiter in waiters { waiter.resume() }
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

  private static func remove(at index: Int, from heap: inout [Node]) {
    heap[index].entry.index = -1
    let last = heap.removeLast()
    guard index < heap.count else { return }
    heap[index] = last
    last.entry.index = index
    siftDown(index, in: &heap)
    siftUp(last.entry.index, in: &heap)
  }

  private static func siftUp(_ index: Int, in heap: inout [Node]) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { return }
      swapAt(child, parent, in: &heap)
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
      swapAt(parent, smallest, in: &heap)
      parent = smallest
    }
  }

  private static func swapAt(_ first: Int, _ second: Int, in heap: inout [Node]) {
    heap.swapAt(first, second)
    heap[first].entry.index = first
    heap[second].entry.index = second
  }
}
