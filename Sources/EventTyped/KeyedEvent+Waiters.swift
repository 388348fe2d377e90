import EventCore

/// The `next` calls waiting on a key that had no list when they began: a request's wait for its
/// reply, the commonest registration of a keyed event, kept in the key's slot rather than in a
/// list of its own.
///
/// A key's list is a full ``Event`` (its list, lock, storage and removal hook): making and
/// freeing one per request cost more than the wait itself. A waiting `next` needs none of it: it
/// runs on the posting thread whatever the delivery, once, and takes no replay. So a key whose
/// registrations are waits holds their entries here, in registration order, and a post offers
/// the payload to each (its predicate outside the lock), takes the claimed ones out of the slot
/// and only then resumes them, so a finished wait is out of every count before its task runs.
///
/// A `next` made while the key has a list goes into the list, and these come before the list's
/// registrations: every one of them began before the list was made, so registration order holds
/// (a registration with a priority above 0 made later is the exception, and is called after
/// them; see the "Request and reply" article).
@usableFromInline enum KeyWaiters<Payload: Sendable> {
  case none
  /// One wait, without the allocation of an array: the request/reply case.
  case one(ObserverEntry<Payload>)
  case many([ObserverEntry<Payload>])

  @inlinable var isEmpty: Bool {
    if case .none = self { return true }
    return false
  }

  /// The waits not yet claimed.
  @inlinable var liveCount: Int {
    switch self {
    case .none: 0
    case .one(let entry): entry.isLive ? 1 : 0
    case .many(let entries): entries.reduce(0) { $0 + ($1.isLive ? 1 : 0) }
    }
  }

  @inlinable mutating func append(_ entry: ObserverEntry<Payload>) {
    switch self {
    case .none: self = .one(entry)
    case .one(let first): self = .many([first, entry])
    case .many(var entries):
      self = .none
      entries.append(entry)
      self = .many(entries)
    }
  }

  /// Removes the claimed waits, in order, and returns them.
  @inlinable mutating func removeEnded() -> KeyWaiters {
    switch self {
    case .none:
      return .none
    case .one(let entry):
      guard !entry.isLive else { return .none }
      self = .none
      return .one(entry)
    case .many(let entries):
      var kept: [ObserverEntry<Payload>] = []
      var ended = KeyWaiters.none
      for entry in entries {
        if entry.isLive { kept.append(entry) } else { ended.append(entry) }
      }
      self = kept.isEmpty ? .none : kept.count == 1 ? .one(kept[0]) : .many(kept)
      return ended
    }
  }

  @inlinable var count: Int {
    switch self {
    case .none: 0
    case .one: 1
    case .many(let entries): entries.count
    }
  }

  @inlinable func forEach(_ body: (ObserverEntry<Payload>) -> Void) {
    switch self {
    case .none: break
    case .one(let entry): body(entry)
    case .many(let entries): for entry in entries { body(entry) }
    }
  }
}

extension KeyedEvent {
  /// Offers `payload` to `waiters`, the waits of `key` a post found in its slot.
  ///
  /// - Returns: The waits reached: those whose predicate rejected it and those it claimed.
  @inlinable
  func offer(_ payload: Payload, to waiters: KeyWaiters<Payload>, of key: Key) -> Int {
    var reached = 0
    var claimed = KeyWaiters<Payload>.none
    waiters.forEach { entry in
      switch entry.claim(accepting: payload) {
      case .ended: break
      case .rejected: reached += 1
      case .claimed:
        reached += 1
        claimed.append(entry)
      }
    }
    guard !claimed.isEmpty else { return reached }
    dropEndedWaiters(of: key)
    claimed.forEach { $0.callClaimed(payload) }
    return reached
  }

  /// Registers a wait on `key`: in its slot if it has no list, otherwise in the list.
  @inlinable
  func beginWaiting(_ key: Key, where predicate: @escaping @Sendable (Payload) -> Bool)
    -> KeyedWait<Key, Payload>
  {
    // Made before the lock, which posts to every other key take for their lookup.
    let waiter = NextWaiter<Payload>()
    let entry = waiter.makeEntry(predicate)
    let (event, changed) = keys.withLock { table -> (Event<Payload>?, ObservedChanges?) in
      // One hash for the lookup and the insertion.
      let event = Self.wait(entry, in: &table.slots[key, default: KeyTable.Slot()])
      guard event == nil, !table.changes.isEmpty, let changes = table.changes[key] else {
        return (event, nil)
      }
      changes.recordElsewhere(1)
      return (nil, changes)
    }
    changed?.deliver()
    guard let event else { return KeyedWait(keyed: self, key: key, waiter: waiter, entry: entry) }
    defer { endRegistering(key) }
    let wait = event.beginWaiting(waiter, entry: entry, where: predicate)
    return KeyedWait(keyed: self, key: key, wait: wait)
  }

  /// Adds `entry` to the slot's waits if it has no list; otherwise enters the list and returns
  /// it, for the caller to register on and then end with ``endRegistering(_:)``.
  @inlinable
  static func wait(_ entry: ObserverEntry<Payload>, in slot: inout KeyTable<Key, Payload>.Slot)
    -> Event<Payload>?
  {
    if let list = slot.list { return enter(list) }
    slot.waiters.append(entry)
    return nil
  }

  /// Takes the claimed waits out of `key`'s slot, and the key out of the table if nothing is
  /// left on it.
  @inlinable
  func dropEndedWaiters(of key: Key) {
    let removed = keys.withLock { table -> KeyTable<Key, Payload>.Removed? in
      guard let index = table.slots.index(forKey: key) else { return nil }
      var removed = KeyTable<Key, Payload>.Removed()
      removed.waiters = table.slots.values[index].waiters.removeEnded()
      guard !removed.waiters.isEmpty else { return nil }
      if !table.changes.isEmpty, let changes = table.changes[key] {
        changes.recordElsewhere(-removed.waiters.count)
        removed.changed = changes
      }
      if table.slots.values[index].waiters.isEmpty && table.slots.values[index].list == nil {
        table.removeSlot(at: index, into: &removed)
      }
      return removed
    }
    // Released after the lock (see `KeyTable.Removed`).
    removed?.finish()
  }
}

extension KeyedEvent {
  /// Ends every wait in `key`'s slot, for the channel's `unregisterAll()`: each throws
  /// `CancellationError`, as a `next` in a list does.
  @inlinable
  func endWaiters(of key: Key) {
    let removed = keys.withLock { table -> KeyTable<Key, Payload>.Removed? in
      guard let index = table.slots.index(forKey: key) else { return nil }
      var removed = KeyTable<Key, Payload>.Removed()
      swap(&removed.waiters, &table.slots.values[index].waiters)
      guard !removed.waiters.isEmpty else { return nil }
      if !table.changes.isEmpty, let changes = table.changes[key] {
        changes.recordElsewhere(-removed.waiters.count)
        removed.changed = changes
      }
      if table.slots.values[index].list == nil { table.removeSlot(at: index, into: &removed) }
      return removed
    }
    guard let removed else { return }
    removed.finish()
    removed.waiters.forEach { entry in
      if entry.claim() { entry.reportRemoval() }
    }
  }
}

/// A `next` registered on a key, in its slot or in its list, and how it ends.
@usableFromInline struct KeyedWait<Key: Hashable & Sendable, Payload: Sendable> {
  @usableFromInline let keyed: KeyedEvent<Key, Payload>
  @usableFromInline let key: Key
  @usableFromInline let wait: NextWait<Payload>
  /// Whether the wait is in the key's slot, which its end must leave when no post did.
  @usableFromInline let inSlot: Bool

  @inlinable
  init(
    keyed: KeyedEvent<Key, Payload>, key: Key, waiter: NextWaiter<Payload>,
    entry: ObserverEntry<Payload>
  ) {
    self.keyed = keyed
    self.key = key
    self.wait = NextWait(waiter: waiter, entry: entry, registration: nil)
    self.inSlot = true
  }

  @inlinable init(keyed: KeyedEvent<Key, Payload>, key: Key, wait: NextWait<Payload>) {
    self.keyed = keyed
    self.key = key
    self.wait = wait
    self.inSlot = false
  }

  /// Waits for the outcome, at most `timeout` from now. A post that claims the wait takes it out
  /// of the slot; a timeout or a cancellation leaves it here, before the call throws.
  @inlinable
  func outcome(timeout: Duration?, isolation: isolated (any Actor)? = #isolation) async throws
    -> Payload
  {
    do {
      return try await wait.outcome(timeout: timeout)
    } catch {
      if inSlot { keyed.dropEndedWaiters(of: key) }
      throw error
    }
  }

  /// Ends the wait without an outcome, for work that threw.
  @inlinable
  func end() {
    wait.end()
    if inSlot { keyed.dropEndedWaiters(of: key) }
  }
}
