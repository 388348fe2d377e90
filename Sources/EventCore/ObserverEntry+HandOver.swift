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
    /// released by the thread that started it, after the lock.
    var payloads: ContiguousArray<Payload?> = []
    /// How many of `payloads` a handler started on.
    var started = 0
    /// Whether the unstarted payloads went back to the list: nothing may start any more.
    var isGivenBack = false
  }

  /// Records `payloads`, which an `.untilObserved` list hands to this registration, as not
  /// handed over until a handler starts on each. Call it under the list's lock, before the
  /// entry is published.
  @usableFromInline package func beginHandOver(_ payloads: ContiguousArray<Payload>) {
    let held = held.load(as: HeldDeliveries.self) ?? held.storeIfNil(HeldDeliveries())
    held.handOver.withLock { $0 = HandOver(payloads: ContiguousArray(payloads.lazy.map { $0 })) }
    state.bitwiseOr(Liveness.handOverBit, ordering: .releasing)
  }

  /// Counts the next handed-over payload as started, just before its handler runs.
  ///
  /// - Returns: `false` when the payloads went back to the list first: the handler must not
  ///   run.
  @usableFromInline func startHandedOver() -> Bool {
    guard let held = held.load(as: HeldDeliveries.self) else { return true }
    let (starts, done) = held.handOver.withLock { handOver -> (Bool, Payload?) in
      guard !handOver.isGivenBack else { return (false, nil) }
      // A delivery that read the bit before the hand-over completed is a live one.
      guard handOver.started < handOver.payloads.count else { return (true, nil) }
      let done = handOver.payloads[handOver.started].take()
      handOver.started += 1
      if handOver.started == handOver.payloads.count {
        handOver = HandOver()
        state.bitwiseAnd(~Liveness.handOverBit, ordering: .releasing)
      }
      return (true, done)
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
      let unstarted = ContiguousArray(handOver.payloads[handOver.started...].lazy.compactMap { $0 })
      // Only the unstarted payloads are left, and they are returned: nothing is released here.
      handOver = HandOver(isGivenBack: true)
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
      if let accepts = _accepts, !accepts(payload) {
        guard startHandedOver() else { return false }
        return true
      }
      // Claimed before it is counted: a cancel that loses the claim finds it started, and one
      // that gave the payload back first makes the start fail.
      guard cancel() else { return false }
      let starts = startHandedOver()
      if let list, let leave { leave(list, self) }
      guard starts else { return false }
    } else {
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
