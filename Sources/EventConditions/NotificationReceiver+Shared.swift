extension NotificationReceiver {
  /// Adds a conditioner of a ``SharedConditioners`` registry to the set.
  ///
  /// The receiver reads the registry's count: arrivals the registry counted before this call
  /// count here too, each later ``SharedConditioners/arrive(_:)`` advances this receiver once
  /// and evaluates it (completing it fires ``onVerified(_:fileID:line:)`` on the arriving thread),
  /// and ``check(_:)`` of the shared name evaluates the set without consuming anything. Neither a
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
    // Following inserts into the registry's list, whose purge loads weak references to other
    // receivers: a load can end up holding the last reference to one, and running its `deinit`
    // (and what its handlers captured) here. So it happens with no lock held, before the count
    // is read: an arrival racing with this call then reaches the receiver either in the count
    // read below or in an update that waits for the lock, and the version drops whichever
    // comes second. Two calls that race to follow one registry may both follow it; the one
    // that records the registry second ends its own registration, and until then an update
    // reaches the receiver twice, which the version drops too.
    let follows = state.withLock { $0.followedRegistries.contains(registry.id) }
    let following = follows ? nil : registry.follow(self)
    let (added, redundant) = state.withLock { state -> (Bool, Subscription?) in
      var redundant: Subscription?
      if let following, !state.followedRegistries.insert(registry.id).inserted {
        redundant = following
      }
      guard !state.machine.contains(shared.name) else { return (false, redundant) }
      let tally = registry.tally(shared.name)
      let added = state.machine.add(
        shared.name, minCount: shared.minCount, ignorable: ignorable,
        source: .shared(registry: registry.id), count: tally.count, version: tally.version)
      return (added, redundant)
    }
    redundant?.cancel()
    guard added else {
      // `fatalError` rather than `precondition`, whose message optimized builds drop.
      fatalError(
        "NotificationReceiver.add: a conditioner named \"\(shared.name)\" is already in the set")
    }
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
