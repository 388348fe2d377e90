import EventCore

/// The jobs that run a `notify` body isolated to an actor other than the main actor, notified
/// from off that actor, per channel, for ``Broadcaster/flush(_:)-swift.method`` to wait for:
/// such a job runs outside every registration's route, so no route's marker sees it.
///
/// Each job takes a ticket when its notification queues it and gives it back when it has run.
/// A flush waits for the tickets taken before it, not for later ones, so notifications that
/// keep coming do not keep it waiting.
@usableFromInline final class IsolatedJobs: Sendable {
  private struct Waiter {
    let channel: ObjectIdentifier
    /// Every ticket below this one was taken before the flush.
    let before: Int
    let done: @Sendable () -> Void
  }

  private struct State {
    var nextTicket = 0
    var running: [ObjectIdentifier: Set<Int>] = [:]
    var waiters: [Waiter] = []
  }

  private let state = Lock(State())

  init() {}

  /// A ticket for a job of `channel`, queued now; give it back with ``finish(_:of:)``.
  func start(of channel: ObjectIdentifier) -> Int {
    state.withLock { state in
      defer { state.nextTicket += 1 }
      state.running[channel, default: []].insert(state.nextTicket)
      return state.nextTicket
    }
  }

  /// The job of `ticket` has run: calls, after the lock, the flushes it was the last to hold.
  func finish(_ ticket: Int, of channel: ObjectIdentifier) {
    let due = state.withLock { state -> [Waiter] in
      state.running[channel]?.remove(ticket)
      if state.running[channel]?.isEmpty == true { state.running[channel] = nil }
      let running = state.running[channel] ?? []
      var due: [Waiter] = []
      state.waiters.removeAll { waiter in
        guard waiter.channel == channel, !running.contains(where: { $0 < waiter.before })
        else { return false }
        due.append(waiter)
        return true
      }
      return due
    }
    for waiter in due { waiter.done() }
  }

  /// Calls `done` once every job of `channel` queued so far has run: at once when none is
  /// running, otherwise on the thread of the last one to finish.
  func afterJobs(of channel: ObjectIdentifier, _ done: @escaping @Sendable () -> Void) {
    let waits = state.withLock { state -> Bool in
      guard let running = state.running[channel], !running.isEmpty else { return false }
      state.waiters.append(Waiter(channel: channel, before: state.nextTicket, done: done))
      return true
    }
    if !waits { done() }
  }
}
