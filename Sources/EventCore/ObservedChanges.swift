/// The handlers told when a list gains its first live registration (`true`) and loses its last
/// (`false`), and the changes waiting for them.
///
/// The list records each change under its own lock, where the changes alternate by
/// construction (the live count goes from 0 to 1 or from 1 to 0), each with the next sequence
/// number. After the lock, whichever thread finds no one delivering delivers every waiting
/// change, in order, outside every lock; a thread whose change another is delivering returns at
/// once, so recording a change never waits for a handler (guarantee 6). A handler receives only
/// the changes recorded after it was added: it is not called for the state it was added in, and
/// it sees true, false, true, … and never the same value twice in a row.
///
@usableFromInline package final class ObservedChanges: Sendable {
  struct Handler {
    let id: Int
    /// The sequence number of the first change this handler is told of.
    let from: Int
    let liveness: Liveness
    let body: @Sendable (Bool) -> Void
  }

  struct State {
    var changes: [(value: Bool, sequence: Int)] = []
    var nextSequence = 0
    var isDelivering = false
    var handlers: [Handler] = []
    var nextID = 0
  }

  let state = Lock(State())

  package init() {}

  /// Records a change; under the list's lock, so that changes keep the list's order. Deliver
  /// them with ``deliver()`` once that lock is released.
  @usableFromInline package func record(_ isObserved: Bool) {
    state.withLock { state in
      state.changes.append((isObserved, state.nextSequence))
      state.nextSequence += 1
    }
  }

  /// Adds a handler for the changes recorded from now on.
  ///
  /// - Returns: The token that removes it; once its `cancel()` returns, no call of the handler
  ///   starts.
  package func add(_ body: @escaping @Sendable (Bool) -> Void) -> Subscription {
    let liveness = Liveness()
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      state.handlers.append(
        Handler(id: state.nextID, from: state.nextSequence, liveness: liveness, body: body))
      return state.nextID
    }
    return Subscription(liveness: liveness) { [weak self] in
      let removed = self?.state.withLock { state -> Handler? in
        guard let index = state.handlers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.handlers.remove(at: index)
      }
      _ = removed
    }
  }

  /// Delivers the recorded changes, oldest first, unless another thread is delivering them:
  /// that one delivers these too, before it returns.
  @usableFromInline package func deliver() {
    let starts = state.withLock { state -> Bool in
      guard !state.isDelivering, !state.changes.isEmpty else { return false }
      state.isDelivering = true
      return true
    }
    guard starts else { return }
    while true {
      let next = state.withLock { state -> (Bool, [Handler])? in
        guard !state.changes.isEmpty else {
          state.isDelivering = false
          return nil
        }
        let change = state.changes.removeFirst()
        return (change.value, state.handlers.filter { $0.from <= change.sequence })
      }
      guard let (value, handlers) = next else { return }
      for handler in handlers where !handler.liveness.isCancelled { handler.body(value) }
    }
  }
}
