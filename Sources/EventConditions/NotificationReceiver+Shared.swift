extension NotificationReceiver {
  /// Adds a conditioner of a ``SharedConditioners`` registry to the set.
  ///
  /// The receiver reads the registry's count: arrivals the registry counted before this call
  /// count here too, each later ``SharedConditioners/arrive(_:)`` advances this receiver once
  /// and evaluates it (completing it fires ``onVerified(_:)`` on the arriving thread), and
  /// ``check(_:)`` of the shared name evaluates the set without consuming anything. Neither a
  /// completion's re-arm nor ``reset()`` resets it; ``SharedConditioners/reset(_:)`` does.
  ///
  /// A name already in the set is a programming error: it stops the program with a message
  /// naming the name.
  ///
  /// - Parameters:
  ///   - shared: The registry's conditioner.
  ///   - ignorable: Whether ``ignore(_:)`` may mark it met for a round; `true` by default.
  ///     Ignoring it affects this receiver only.
  /// - Complexity: O(*n*), where *n* is the number of conditioners. Thread-safe.
  public func add(_ shared: SharedConditioner, ignorable: Bool = true) {
    let registry = shared.registry
    let added = state.withLock { state -> Bool in
      guard !state.machine.contains(shared.name) else { return false }
      // Following and reading the count happen under this receiver's lock, so an arrival
      // racing with this call reaches the receiver either in the count read here or in an
      // update that waits for the lock; the version drops whichever comes second. The
      // registry never takes a receiver's lock, so nesting its lock here cannot deadlock.
      if state.followedRegistries.insert(registry.id).inserted { registry.follow(self) }
      let tally = registry.tally(shared.name)
      return state.machine.add(
        shared.name, minCount: shared.minCount, ignorable: ignorable,
        source: .shared(registry: registry.id), count: tally.count, version: tally.version)
    }
    precondition(
      added,
      "NotificationReceiver.add: a conditioner named \"\(shared.name)\" is already in the set")
  }

  /// Takes a registry's new count and evaluates, then announces a completion with no lock
  /// held.
  func receiveShared(_ update: SharedUpdate, from registry: UInt64) {
    let (counted, completed, due) = state.withLock { state in
      let counted =
        update.isArrival
        && state.machine.takesShared(update.name, registry: registry, version: update.version)
      let completed = state.machine.updateShared(
        update.name, registry: registry, count: update.count, version: update.version)
      return (counted, completed, completed ? state.waiters.complete() : [])
    }
    if counted { arrivalHandlers.post(update.name) }
    if completed { announceCompletion(resuming: due) }
  }
}
