import Dispatch
import Synchronization

/// Runs the calls of every bounded main-actor mailbox in one order, the order they were queued
/// in, across registrations and events: guarantee 13 for backlogs that a drain takes batch by
/// batch.
///
/// Each mailbox with calls waiting is here once, keyed by the place of its oldest call in one
/// sequence that every such call takes when it is queued. One drain at a time, on the main
/// queue, runs the call that was queued first among all the mailboxes' oldest, then schedules
/// that mailbox again by its next call; after ``batchLimit`` calls it enqueues its continuation
/// on the main queue, behind what came meanwhile (guarantee 14). A mailbox whose oldest call
/// was dropped since it was scheduled is moved to its new oldest call, unrun. So the memory is
/// one entry per busy mailbox, whatever the flood: what a dropped call leaves behind is nothing.
package enum MainActorSchedule {
  /// Runs the oldest call of one mailbox if it is the one given, and says which of its calls
  /// waits first then, if any.
  package typealias Run = @Sendable (_ expecting: UInt64) -> UInt64?

  private struct Waiting {
    let sequence: UInt64
    let run: Run
  }

  private struct State {
    /// A binary min-heap by `sequence`.
    var heap: ContiguousArray<Waiting> = []
    var isDraining = false

    mutating func push(_ waiting: Waiting) {
      heap.append(waiting)
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard heap[child].sequence < heap[parent].sequence else { break }
        heap.swapAt(child, parent)
        child = parent
      }
    }

    mutating func popFirst() -> Waiting? {
      guard !heap.isEmpty else { return nil }
      heap.swapAt(0, heap.count - 1)
      let first = heap.removeLast()
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < heap.count, heap[left].sequence < heap[smallest].sequence { smallest = left }
        if right < heap.count, heap[right].sequence < heap[smallest].sequence { smallest = right }
        guard smallest != parent else { break }
        heap.swapAt(parent, smallest)
        parent = smallest
      }
      return first
    }
  }

  private static let state = Lock(State())
  private static let counter = Atomic<UInt64>(0)
  private static var batchLimit: Int { 16 }

  /// The next place in the order, for a call about to be queued.
  package static func nextSequence() -> UInt64 {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Schedules the mailbox whose oldest call is at `sequence`, run by `run`.
  package static func schedule(at sequence: UInt64, _ run: @escaping Run) {
    let starts = state.withLock { state -> Bool in
      state.push(Waiting(sequence: sequence, run: run))
      guard !state.isDraining else { return false }
      state.isDraining = true
      return true
    }
    if starts { DispatchQueue.main.async { drain() } }
  }

  /// Runs a batch, in order, on the main queue.
  private static func drain() {
    for _ in 0..<batchLimit {
      let waiting = state.withLock { state -> Waiting? in
        guard let first = state.popFirst() else {
          state.isDraining = false
          return nil
        }
        return first
      }
      guard let waiting else { return }
      // The call runs outside the lock; its mailbox goes back in with its next call.
      if let following = waiting.run(waiting.sequence) {
        state.withLock { $0.push(Waiting(sequence: following, run: waiting.run)) }
      }
    }
    DispatchQueue.main.async { drain() }
  }
}
