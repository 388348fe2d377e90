import EventCore

/// What a recorder has recorded, and the tasks waiting in `next(timeout:)` for a value not yet
/// recorded: the storage both recorders share.
///
/// Values are appended on the recording thread, under the lock. A waiting task is handed the
/// next unread value by the append that brings it, under the same lock, so each value is read
/// by exactly one `next` and none is lost to a task that timed out meanwhile.
final class Recording<Value: Sendable>: Sendable {
  private struct State: Sendable {
    var values: [Value] = []
    /// The index of the next unread value.
    var cursor = 0
    /// The tasks waiting for a value, first come first served.
    var waiting: [OutcomeSlot<Value>] = []
  }

  private let state = Lock(State())

  /// Everything recorded, in order.
  var values: [Value] {
    state.withLock { $0.values }
  }

  /// Appends `value`, and hands the next unread value to the first waiting task, if any.
  func record(_ value: Value) {
    let handed = state.withLock { state -> (OutcomeSlot<Value>, Value)? in
      state.values.append(value)
      guard !state.waiting.isEmpty else { return nil }
      defer { state.cursor += 1 }
      return (state.waiting.removeFirst(), state.values[state.cursor])
    }
    if let (slot, value) = handed { slot.finish(.success(value)) }
  }

  /// The next unread value, waiting for at most `timeout` for one.
  func next(timeout: Duration, isolation: isolated (any Actor)? = #isolation) async throws
    -> Value
  {
    let slot = OutcomeSlot<Value>()
    let unread = state.withLock { state -> Value? in
      guard state.cursor < state.values.count else {
        state.waiting.append(slot)
        return nil
      }
      defer { state.cursor += 1 }
      return state.values[state.cursor]
    }
    if let unread { return unread }
    let timer = TimeoutTimer(timeout) { self.abandon(slot, with: EventTimeout(timeout: timeout)) }
    let outcome = await withTaskCancellationHandler {
      await slot.outcome()
    } onCancel: {
      abandon(slot, with: CancellationError())
    }
    await timer.end()
    return try outcome.get()
  }

  /// Ends a wait with `error`, unless a value was handed to it first.
  private func abandon(_ slot: OutcomeSlot<Value>, with error: any Error) {
    let waiting = state.withLock { state -> Bool in
      guard let index = state.waiting.firstIndex(where: { $0 === slot }) else { return false }
      state.waiting.remove(at: index)
      return true
    }
    if waiting { slot.finish(.failure(error)) }
  }
}
