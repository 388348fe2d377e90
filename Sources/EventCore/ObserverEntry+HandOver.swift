import Synchronization

extension ObserverEntry {
  /// The held payloads an `.untilObserved` list handed to this registration as its replay.
  ///
  /// A payload counts as handed over only once a handler starts on it: those that the
  /// registration drops unrun (a cancel, an unregister or a re-registration before its queued
  /// replay runs, or its observer's death) go back to the front of the list's hold, so the next
  /// registration receives them, ahead of the posts held since.
  @usableFromInline struct HandOver {
    /// The payloads in post order; each started one is taken out (`nil`), so that it is
    /// released by the thread that started it, after the lock. Emptied once none is left.
    var payloads: ContiguousArray<Payload?> = []
    /// How many payloads were handed over: positions below it are handed-over ones, positions
    /// from it on live posts.
    var count = 0
    /// How many of `payloads` have not been started.
    var unstarted = 0
    /// The next position ``startHandedOver()`` starts: handlers that run what they receive in
    /// order start them in order.
    var next = 0
    /// Whether the unstarted payloads went back to the list: nothing may start any more.
    var isGivenBack = false

    init() {}

    init(_ handed: ContiguousArray<Payload>) {
      payloads = ContiguousArray(handed.lazy.map { $0 })
      count = handed.count
      unstarted = handed.count
    }
  }

  /// Records `payloads`, which an `.untilObserved` list hands to this registration, as not
  /// handed over until a handler starts on each. Call it under the list's lock, before the
  /// entry is published.
  @usableFromInline package func beginHandOver(_ payloads: ContiguousArray<Payload>) {
    let held = held.load(as: HeldDeliveries.self) ?? held.storeIfNil(HeldDeliveries())
    held.handOver.withLock { $0 = HandOver(payloads) }
    state.bitwiseOr(Liveness.handOverBit, ordering: .releasing)
  }

  /// Makes the handler's consumer, not the call of the handler, start each handed-over
  /// payload: for a registration whose handler only buffers what it receives (an async
  /// handler's queue, a `values` stream), a payload counts as handed over when that consumer
  /// starts on it (``startHandedOver(at:)``), and one still buffered when the registration ends
  /// goes back to the hold. Call it before the entry is registered.
  package func startsWhereConsumed() {
    state.bitwiseOr(Liveness.consumerStartsBit, ordering: .relaxed)
  }

  /// How many held payloads the list handed to this registration when it registered: the
  /// positions, from 0, of the first payloads its handler received.
  package var handedOverCount: Int {
    guard let held = held.load(as: HeldDeliveries.self) else { return 0 }
    return held.handOver.withLock { $0.count }
  }

  /// Counts the payload the handler received in `position` (0 for the first) as started, for
  /// a registration made with ``startsWhereConsumed()``: its consumer calls it just before it
  /// starts on that payload, or when it drops it by its own policy.
  ///
  /// - Returns: `false` when the payload went back to the list first: it must not start.
  package func startHandedOver(at position: Int) -> Bool {
    guard let held = held.load(as: HeldDeliveries.self) else { return true }
    let (starts, done) = held.handOver.withLock { handOver -> (Bool, Payload?) in
      start(&handOver, at: position)
    }
    _ = done
    return starts
  }

  /// Starts the payload in `position`, under the hand-over's lock; the started payload is
  /// returned, to be released after it.
  private func start(_ handOver: inout HandOver, at position: Int) -> (Bool, Payload?) {
    guard !handOver.isGivenBack else { return (false, nil) }
    // A delivery that read the bit before the hand-over completed is a live one.
    guard position < handOver.count, !handOver.payloads.isEmpty else { return (true, nil) }
    guard let done = handOver.payloads[position].take() else { return (true, nil) }
    handOver.unstarted -= 1
    if handOver.unstarted == 0 {
      handOver.payloads = []
      state.bitwiseAnd(~Liveness.handOverBit, ordering: .releasing)
    }
    return (true, done)
  }

  /// Counts the next handed-over payload as started, just before its handler runs.
  ///
  /// - Returns: `false` when the payloads went back to the list first: the handler must not
  ///   run.
  @usableFromInline func startHandedOver() -> Bool {
    guard let held = held.load(as: HeldDeliveries.self) else { return true }
    let (starts, done) = held.handOver.withLock { handOver -> (Bool, Payload?) in
      let position = handOver.next
      handOver.next += 1
      return start(&handOver, at: position)
    }
    _ = done
    return starts
  }

  /// Takes the handed-over payloads that no handler started on, in post order, and ends the
  /// hand-over. Call it under the list's lock, which is taken before the hand-over's.
  @usableFromInline func takeUnstarted() -> ContiguousArray<Payload> {
    guard state.load(ordering: .acquiring) & Liveness.handOverBit != 0,
      let held = held.load(as: HeldDeliveries.self)
    else { return [] }
    return held.handOver.withLock { handOver in
      guard !handOver.isGivenBack else { return [] }
      let unstarted = ContiguousArray(handOver.payloads.lazy.compactMap { $0 })
      // Only the unstarted payloads are left, and they are returned: nothing is released here.
      handOver.payloads = []
      handOver.isGivenBack = true
      state.bitwiseAnd(~Liveness.handOverBit, ordering: .releasing)
      return unstarted
    }
  }

  /// Gives the unstarted handed-over payloads back to the list, when the registration turns
  /// out dead on its own (its observer or an owner gone) rather than through its list.
  @usableFromInline func giveBackUnstarted() {
    guard state.load(ordering: .acquiring) & Liveness.handOverBit != 0, let list else { return }
    list.giveBack(self)
  }

  /// ``invoke(_:then:)`` while the registration holds handed-over payloads: the payload counts
  /// as handed over once every check has passed, just before the handler runs.
  @usableFromInline func invokeHandedOver(_ payload: Payload, then continuation: () -> Void)
    -> Bool
  {
    let current = state.load(ordering: .acquiring)
    // Held for the call, so the observer cannot die between the check and the start.
    var target: AnyObject?
    if !isPlain {
      target = observer
      guard target != nil else {
        giveBackUnstarted()
        return false
      }
    }
    if current & Liveness.boundBit != 0 && !ownersAreAlive() {
      giveBackUnstarted()
      return false
    }
    if current & Liveness.onceBit != 0 {
      if current & Liveness.filteredBit != 0, !accepts(payload) {
        guard startHandedOver() else { return false }
        return true
      }
      // Claimed before it is counted: a cancel that loses the claim finds it started, and one
      // that gave the payload back first makes the start fail.
      guard cancel() else { return false }
      let starts = startHandedOver()
      if let list, let leave { leave(list, self) }
      guard starts else { return false }
    } else if current & Liveness.consumerStartsBit == 0 {
      guard startHandedOver() else { return false }
    }
    if isPlain {
      plain(payload)
    } else {
      bound(target.unsafelyUnwrapped, payload)
    }
    continuation()
    return true
  }
}

extension ObserverList {
  /// Puts the handed-over payloads of `entry` that no handler started on back at the front of
  /// the hold, ahead of the posts held since.
  @usableFromInline func giveBack(_ entry: Entry) {
    state.withLock { $0.retention.giveBack(entry.takeUnstarted()) }
  }
}
