import Dispatch

/// The handlers told when a list gains its first live registration (`true`) and loses its last
/// (`false`).
///
/// A handler needs only the net state, so nothing is queued: the list records each change
/// under its own lock (the changes alternate by construction: the live count goes from 0 to 1
/// or from 1 to 0), and each handler keeps the value it was last told. After the lock,
/// whichever thread finds no one delivering runs one round: it tells every handler whose last
/// value differs from the current state that state, once, outside every lock. So a handler is
/// not called for the state it was added in, never hears the same value twice in a row, and
/// changes that cancel out while it runs cost it nothing.
///
/// A thread that finds a round running returns at once (recording never waits for a handler,
/// guarantee 6). The round covers its change if it had not yet read the state; otherwise the
/// round's thread sees the change when it ends and hands a new round to a dispatch thread
/// rather than running it itself. So a caller's work is one round, O(handlers) calls, for the
/// change it recorded, however fast other threads change the state; only the handed-off
/// rounds, which hold no caller, follow other threads' changes, and they stop once the state
/// is still for a round.
@usableFromInline package final class ObservedChanges: Sendable {
  struct Handler {
    let id: Int
    /// The value the handler was last told, or the state it was added in; `nil` only before the
    /// first change, when the state is not yet known (the first change gives it: its opposite).
    var told: Bool?
    let liveness: Liveness
    let body: @Sendable (Bool) -> Void
  }

  struct State {
    /// The latest recorded state; `nil` before the first change.
    var isObserved: Bool?
    /// The state the list last recorded.
    var listObserved = false
    /// Registrations kept outside the list that count as observers: a keyed event's waiting
    /// `next` calls (``recordElsewhere(_:)``).
    var elsewhere = 0
    /// Whether a change was recorded since the last round read the state.
    var isPending = false
    /// Whether a round is running or handed off; only one is, so that each handler's calls
    /// never overlap and stay in order.
    var isDelivering = false
    var handlers: [Handler] = []
    var nextID = 0
  }

  let state = Lock(State())

  package init() {}

  /// Changes whose state is known from the start: `elsewhere` registrations kept outside any
  /// list, and no list yet (``follow(listObserved:)`` adds one).
  package init(elsewhere: Int) {
    state.withLock { state in
      state.elsewhere = elsewhere
      state.isObserved = elsewhere > 0
    }
  }

  /// Records a change; under the list's lock, so that changes keep the list's order. Deliver it
  /// with ``deliver()`` once that lock is released.
  @usableFromInline package func record(_ isObserved: Bool) {
    state.withLock { state in
      state.listObserved = isObserved
      Self.update(&state)
    }
  }

  /// Records that `delta` registrations kept outside the list started (positive) or ended;
  /// under the lock of whatever keeps them. Deliver it with ``deliver()`` after that lock.
  @usableFromInline package func recordElsewhere(_ delta: Int) {
    state.withLock { state in
      state.elsewhere += delta
      Self.update(&state)
    }
  }

  /// Starts following a list that may already be observed. Under the list's lock, before its
  /// first record, so that no change falls in between.
  @usableFromInline package func follow(listObserved: Bool) {
    state.withLock { state in
      state.listObserved = listObserved
      Self.update(&state)
    }
  }

  /// Makes the state what the list and the registrations elsewhere say; a change is pending
  /// for the handlers only when it differs from the last.
  static func update(_ state: inout State) {
    let isObserved = state.listObserved || state.elsewhere > 0
    if state.isObserved == nil {
      for index in state.handlers.indices { state.handlers[index].told = !isObserved }
    } else if state.isObserved == isObserved {
      return
    }
    state.isObserved = isObserved
    state.isPending = true
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
        Handler(id: state.nextID, told: state.isObserved, liveness: liveness, body: body))
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

  /// Whether any handler is installed: a keyed event drops a key's changes once none is.
  @usableFromInline package var hasHandlers: Bool {
    state.withLock { !$0.handlers.isEmpty }
  }

  /// Tells the handlers the state a change left, unless a round is running: that one, or the
  /// round it hands off, tells them.
  @usableFromInline package func deliver() {
    let starts = state.withLock { state -> Bool in
      guard !state.isDelivering, state.isPending else { return false }
      state.isDelivering = true
      return true
    }
    if starts { deliverRound() }
  }

  /// One round, run by the thread that holds `isDelivering`: tells each handler that was last
  /// told otherwise the current state, then gives `isDelivering` up, or hands it, with a new
  /// round, to a dispatch thread when a change arrived meanwhile.
  func deliverRound() {
    let (isObserved, stale) = state.withLock { state -> (Bool, [Handler]) in
      state.isPending = false
      // Set: a round runs only after a change.
      let isObserved = state.isObserved!
      var stale: [Handler] = []
      for index in state.handlers.indices where state.handlers[index].told != isObserved {
        state.handlers[index].told = isObserved
        stale.append(state.handlers[index])
      }
      return (isObserved, stale)
    }
    for handler in stale where !handler.liveness.isCancelled { handler.body(isObserved) }
    let more = state.withLock { state -> Bool in
      if !state.isPending { state.isDelivering = false }
      return state.isPending
    }
    // Not a loop here: the changes that arrived are other threads' (or a handler's), and this
    // thread's caller waits only for its own.
    if more { DispatchQueue.global().async { self.deliverRound() } }
  }
}
