extension ObserverList {
  /// What the list retains (or holds) for later registrations, oldest first.
  package var retained: [Payload] {
    state.withLock { Array($0.retention.payloads) }
  }

  /// Retains `payload` as if it had been posted before any registration, delivering it to
  /// nobody: the initial value of a replaying event.
  ///
  /// - Returns: `false`, retaining nothing, when the list does not retain.
  package func seedRetained(_ payload: Payload) -> Bool {
    state.withLock { state in
      switch state.retention.policy {
      case .none:
        return false
      case .last:
        _ = state.retention.record(payload)
      case .untilObserved:
        state.retention.hold(payload)
      }
      return true
    }
  }
}

/// What ``ObserverList/subscribeUnlessHolding(_:)`` did.
@usableFromInline package enum HeldOrRegistered<Payload> {
  /// The oldest held payload, taken; the entry was not registered.
  case held(Payload)
  /// Nothing was held: the entry is registered, and this token ends it.
  case registered(Subscription)
}

extension ObserverList {
  /// For a wait on an `.untilObserved` list: in one critical section, takes the oldest held
  /// payload if there is one, otherwise registers `entry`, token-held. So a caller that loops
  /// until it registers sees every held payload and every later post, in order, and runs its
  /// filter on held payloads outside the lock; a post made meanwhile is held behind the rest,
  /// never lost and never reaching a registration that is not there yet.
  @usableFromInline package func subscribeUnlessHolding(_ entry: Entry) -> HeldOrRegistered<Payload>
  {
    entry.list = self
    entry.leave = { list, entry in list.remove(entry) }
    let (held, released, purgeDue) = state.withLock { state -> (Payload?, Released, Bool) in
      var released = Released()
      if state.retention.policy == .untilObserved, !state.retention.storage.isEmpty {
        // A hold only ever appends, so its oldest payload is at the front.
        return (state.retention.storage.removeFirst(), released, false)
      }
      let purgeDue = insert(entry, into: &state, releasing: &released)
      return (nil, released, purgeDue)
    }
    finish(released)
    if let held { return .held(held) }
    if purgeDue { purgeAndCheckElsewhere() }
    return .registered(Subscription(registration: entry, cancelsOnDeinit: true))
  }
}
