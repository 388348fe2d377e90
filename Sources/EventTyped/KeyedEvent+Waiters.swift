import EventCore

/// The `next` calls waiting on a key that had no list when they began: a request's wait for its
/// reply, the commonest registration of a keyed event, kept in the key's slot rather than in a
/// list of its own.
///
/// A key's list is a full ``Event`` (its list, lock, storage and removal hook): making and
/// freeing one per request cost more than the wait itself. A waiting `next` needs none of it: it
/// runs on the posting thread whatever the delivery, once, and takes no replay. So a key whose
/// registrations are waits holds their waiters here, in registration order, each claimed by
/// whichever of its outcomes comes first, with no list entry at all; and a post offers
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
  case one(SlotWait<Payload>)
  case many([SlotWait<Payload>])

  @inlinable var isEmpty: Bool {
    if case .none = self { return true }
    return false
  }

  /// The waits not yet claimed.
  @inlinable var liveCount: Int {
    switch self {
    case .none: 0
    case .one(let wait): wait.waiter.isLive ? 1 : 0
    case .many(let waits): waits.reduce(0) { $0 + ($1.waiter.isLive ? 1 : 0) }
    }
  }

  @inlinable mutating func append(_ wait: SlotWait<Payload>) {
    switch self {
    case .none: self = .one(wait)
    case .one(let first): self = .many([first, wait])
    case .many(var waits):
      self = .none
      waits.append(wait)
      self = .many(waits)
    }
  }

  /// Removes every wait, and returns them.
  @inlinable mutating func removeAll() -> KeyWaiters {
    defer { self = .none }
    return self
  }

  /// Removes the claimed waits, in order, and returns them.
  @inlinable mutating func removeEnded() -> KeyWaiters {
    switch self {
    case .none:
      return .none
    case .one(let wait):
      guard !wait.waiter.isLive else { return .none }
      self = .none
      return .one(wait)
    case .many(let waits):
      var kept: [SlotWait<Payload>] = []
      var ended = KeyWaiters.none
      for wait in waits {
        if wait.waiter.isLive { kept.append(wait) } else { ended.append(wait) }
      }
      self = kept.isEmpty ? .none : kept.count == 1 ? .one(kept[0]) : .many(kept)
      return ended
    }
  }

  @inlinable var count: Int {
    switch self {
    case .none: 0
    case .one: 1
    case .many(let waits): waits.count
    }
  }

  @inlinable func forEach(_ body: (SlotWait<Payload>) -> Void) {
    switch self {
    case .none: break
    case .one(let wait): body(wait)
    case .many(let waits): for wait in waits { body(wait) }
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
    waiters.forEach { wait in
      // As a post offers a filtered once-registration: a rejected payload counts as reached.
      guard wait.waiter.isLive else { return }
      reached += 1
      if wait.accepts(payload), wait.waiter.claim() { claimed.append(wait) }
    }
    guard !claimed.isEmpty else { return reached }
    // Out of the slot before the waits resume, so a returned `next` is in no count.
    dropEndedWaiters(of: key)
    claimed.forEach { $0.waiter.succeed(payload) }
    return reached
  }

  /// Registers a wait on `key`: in its slot if it has no list, otherwise in the list.
  @inlinable
  func beginWaiting(_ key: Key, where predicate: @escaping @Sendable (Payload) -> Bool)
    -> KeyedWait<Key, Payload>
  {
    // Made before the lock, which posts to every other key take for their lookup.
    let waiter = NextWaiter<Payload>()
    let wait = SlotWait(waiter: waiter, accepts: predicate)
    let (event, changed) = keys.withLock { table -> (Event<Payload>?, ObservedChanges?) in
      // One hash for the lookup and the insertion.
      let event = Self.wait(wait, in: &table.slots[key, default: KeyTable.Slot()])
      guard event == nil, !table.changes.isEmpty, let changes = table.changes[key] else {
        return (event, nil)
      }
      changes.recordElsewhere(1)
      return (nil, changes)
    }
    changed?.deliver()
    guard let event else { return KeyedWait(keyed: self, key: key, waiter: waiter, entry: nil) }
    defer { endRegistering(key) }
    let entry = waiter.makeEntry(predicate)
    _ = event.beginWaiting(waiter, entry: entry, where: predicate)
    return KeyedWait(keyed: self, key: key, waiter: waiter, entry: entry)
  }

  /// Adds `wait` to the slot's waits if it has no list; otherwise enters the list and returns
  /// it, for the caller to register on and then end with ``endRegistering(_:)``.
  @inlinable
  static func wait(_ wait: SlotWait<Payload>, in slot: inout KeyTable<Key, Payload>.Slot)
    -> Event<Payload>?
  {
    if let list = slot.list { return enter(list) }
    slot.waiters.append(wait)
    return nil
  }

  /// Takes the claimed waits out of `key`'s slot, and the key out of the table if nothing is
  /// left on it.
  @inlinable
  func dropEndedWaiters(of key: Key) {
    // Released after the lock (see `KeyTable.Removed`).
    takeWaiters(of: key) { $0.removeEnded() }?.finish()
  }

  /// Ends every wait in `key`'s slot, for the channel's `unregisterAll()`: each throws
  /// `CancellationError`, as a `next` in a list does.
  @inlinable
  func endWaiters(of key: Key) {
    guard let removed = takeWaiters(of: key, { $0.removeAll() }) else { return }
    removed.finish()
    removed.waiters.forEach { wait in
      if wait.waiter.claim() { wait.waiter.registrationRemoved() }
    }
  }

  /// Takes what `take` removes from `key`'s waits out of the table, with the key if nothing is
  /// left on it, and records the change for the key's observed-change handlers.
  @inlinable
  func takeWaiters(of key: Key, _ take: (inout KeyWaiters<Payload>) -> KeyWaiters<Payload>)
    -> KeyTable<Key, Payload>.Removed?
  {
    keys.withLock { table -> KeyTable<Key, Payload>.Removed? in
      guard let index = table.slots.index(forKey: key) else { return nil }
      var removed = KeyTable<Key, Payload>.Removed()
      removed.waiters = take(&table.slots.values[index].waiters)
      guard !removed.waiters.isEmpty else { return nil }
      if !table.changes.isEmpty, let changes = table.changes[key] {
        changes.recordElsewhere(-removed.waiters.count)
        removed.changed = changes
      }
      if table.slots.values[index].waiters.isEmpty && table.slots.values[index].event == nil {
        table.removeSlot(at: index, into: &removed)
      }
      return removed
    }
  }
}

/// A wait kept in a key's slot: its waiter, which it claims itself, and its predicate.
@usableFromInline struct SlotWait<Payload: Sendable> {
  @usableFromInline let waiter: NextWaiter<Payload>
  @usableFromInline let accepts: @Sendable (Payload) -> Bool

  @inlinable init(waiter: NextWaiter<Payload>, accepts: @escaping @Sendable (Payload) -> Bool) {
    self.waiter = waiter
    self.accepts = accepts
  }
}

/// A `next` registered on a key, in its slot (no `entry`) or in its list, and how it ends.
@usableFromInline struct KeyedWait<Key: Hashable & Sendable, Payload: Sendable>: PendingWait {
  @usableFromInline let keyed: KeyedEvent<Key, Payload>
  @usableFromInline let key: Key
  @usableFromInline let waiter: NextWaiter<Payload>
  /// The wait's registration in the key's list, or `nil` when it is in the key's slot.
  @usableFromInline let entry: ObserverEntry<Payload>?

  @inlinable
  init(
    keyed: KeyedEvent<Key, Payload>, key: Key, waiter: NextWaiter<Payload>,
    entry: ObserverEntry<Payload>?
  ) {
    self.keyed = keyed
    self.key = key
    self.waiter = waiter
    self.entry = entry
  }

  /// Waits for the outcome, at most `timeout` from now. A post that claims the wait takes it out
  /// of the slot or the list; a timeout or a cancellation takes it out before the call throws.
  @inlinable
  func outcome(timeout: Duration?, isolation: isolated (any Actor)? = #isolation) async throws
    -> Payload
  {
    guard let entry else {
      let outcome = await waiter.outcome(claiming: waiter, timeout: timeout)
      if case .failure = outcome { keyed.dropEndedWaiters(of: key) }
      return try outcome.get()
    }
    return try await waiter.outcome(claiming: entry, timeout: timeout).get()
  }

  /// Ends the wait without an outcome, for work that threw.
  @inlinable
  func end() {
    guard let entry else {
      _ = waiter.claim()
      keyed.dropEndedWaiters(of: key)
      return
    }
    _ = entry.claim()
  }
}
