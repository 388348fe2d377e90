import EventCore
public import Synchronization

/// A keyed event's keys: each live key's list, the observed-change handlers of its channels,
/// and when the next sweep is due. Guarded by ``KeyedEvent/keys``.
@usableFromInline struct KeyTable<Key: Hashable & Sendable, Payload: Sendable> {
  @usableFromInline struct Slot {
    @usableFromInline let event: Event<Payload>
    @usableFromInline let registrations: RegistrationsUnderWay

    @inlinable init(event: Event<Payload>, registrations: RegistrationsUnderWay) {
      self.event = event
      self.registrations = registrations
    }
  }

  @usableFromInline var slots: [Key: Slot] = [:]
  /// The ``KeyedEvent/Channel/onObservedChange(_:)`` handlers of each key, which outlive the
  /// key's lists.
  @usableFromInline var changes: [Key: ObservedChanges] = [:]
  /// The number of keys at which the next registration sweeps for dead observers; `Int.max`
  /// while a sweep runs.
  @usableFromInline var sweepAt = 64

  @usableFromInline init() {}

  /// What a removal took out of the table, for the caller to release after the lock: a list's
  /// last release may release handlers, and a key may be a class whose deinit is user code.
  @usableFromInline typealias Removed = (
    slot: (key: Key, value: Slot), changes: (key: Key, value: ObservedChanges)?
  )

  /// Removes the key at `index` if its list is empty and no registration is under way, with
  /// its observed-change handlers' record if none is left.
  @inlinable
  mutating func removeIfUnused(at index: Dictionary<Key, Slot>.Index) -> Removed? {
    let slot = slots.values[index]
    guard !slot.registrations.any, !slot.event.list.isObserved else { return nil }
    let removed = slots.remove(at: index)
    guard !changes.isEmpty, let changesIndex = changes.index(forKey: removed.key),
      !changes.values[changesIndex].hasHandlers
    else { return (removed, nil) }
    return (removed, changes.remove(at: changesIndex))
  }
}

/// The registrations under way on one key: while any is, the key stays even if its list is
/// empty, so that a registration never lands in a list already removed.
///
/// Changed only under the table lock, but atomic so that the hook of the key's list can read it
/// without the lock: a `next` ends its registration inside the post that answers it, while its
/// channel call is still under way, and that hook would otherwise take the table lock and hash
/// the key once more per reply, in the posting thread, only to find the key still in use.
@usableFromInline final class RegistrationsUnderWay: Sendable {
  @usableFromInline let count = Atomic<Int>(0)

  @inlinable init() {}

  /// Whether a registration is under way. Ordered with the lists' counts (sequentially
  /// consistent, with a fence on each side): a list that empties while the last registration
  /// under way ends is seen empty by that ending, or sees it ended, never neither.
  @inlinable var any: Bool {
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    return count.load(ordering: .sequentiallyConsistent) > 0
  }

  @inlinable func add(_ delta: Int) {
    count.add(delta, ordering: .sequentiallyConsistent)
    atomicMemoryFence(ordering: .sequentiallyConsistent)
  }
}

extension KeyedEvent {
  /// The list of `key`, if it has one now.
  @inlinable
  func event(of key: Key) -> Event<Payload>? {
    // Through the index, so that only the event is copied out of the slot (one retain, not one
    // per field): a post reads this once per payload.
    keys.withLock { table in table.slots.index(forKey: key).map { table.slots.values[$0].event } }
  }

  /// The number of `key`'s registrations, without a purge.
  @inlinable
  func registeredCount(of key: Key) -> Int {
    event(of: key)?.list.registeredCount ?? 0
  }

  /// The list of `key`, made if it has none, held until the matching ``endRegistering(_:)``: the
  /// caller registers on it in between.
  ///
  /// Making a key may be the one that doubles the number of keys since the last sweep: that
  /// caller sweeps, after the lock.
  @inlinable
  func beginRegistering(_ key: Key) -> Event<Payload> {
    let found = keys.withLock { table -> Event<Payload>? in
      guard let index = table.slots.index(forKey: key) else { return nil }
      return Self.enter(&table.slots.values[index])
    }
    if let found { return found }
    // A new key's list is made outside the lock: making an event allocates several objects, and
    // posts to every other key wait on this lock for their lookup.
    let made = makeSlot(for: key)
    let (event, sweep) = keys.withLock { table -> (Event<Payload>, [Event<Payload>]?) in
      // One hash: the slot made above is used only if no other registration made one meanwhile.
      let event = Self.enter(&table.slots[key, default: made])
      // The new list reports to the key's channel handlers from the critical section that
      // publishes it, so none can be added or dropped in between.
      if event === made.event, !table.changes.isEmpty, let changes = table.changes[key] {
        event.list.reportObservedChanges(to: changes)
      }
      guard table.slots.count >= table.sweepAt else { return (event, nil) }
      table.sweepAt = .max
      return (event, table.slots.values.map { $0.event })
    }
    if let sweep { self.sweep(sweep) }
    return event
  }

  @inlinable
  static func enter(_ slot: inout KeyTable<Key, Payload>.Slot) -> Event<Payload> {
    slot.registrations.add(1)
    return slot.event
  }

  /// Ends a registration begun by ``beginRegistering(_:)``; removes the key if its list is
  /// empty.
  @inlinable
  func endRegistering(_ key: Key) {
    let removed = keys.withLock { table -> KeyTable<Key, Payload>.Removed? in
      guard let index = table.slots.index(forKey: key) else { return nil }
      table.slots.values[index].registrations.add(-1)
      return table.removeIfUnused(at: index)
    }
    // Released after the lock (see `KeyTable.Removed`).
    _ = removed
  }

  /// Removes `key` if its list is empty and no registration is under way: the hook of each
  /// key's list, called when its last registration ends.
  @inlinable
  func removeIfUnused(_ key: Key, registrations: RegistrationsUnderWay) {
    // The registration under way removes the key when it ends, if the list is still empty.
    guard !registrations.any else { return }
    let removed = keys.withLock { table -> KeyTable<Key, Payload>.Removed? in
      guard let index = table.slots.index(forKey: key) else { return nil }
      return table.removeIfUnused(at: index)
    }
    _ = removed
  }

  /// A new key's list, which removes the key when its last registration ends.
  @inlinable
  func makeSlot(for key: Key) -> KeyTable<Key, Payload>.Slot {
    // Weak: the table holds the list, and a list may outlive its keyed event (a post in
    // progress holds it).
    let registrations = RegistrationsUnderWay()
    let event = Event<Payload>(delivery: delivery, errorChannel: errorChannel) {
      [weak self] in self?.removeIfUnused(key, registrations: registrations)
    }
    return KeyTable.Slot(event: event, registrations: registrations)
  }

  /// Drops the registrations of `events` whose observers died, which removes the keys left
  /// empty, then sets the next sweep at twice the keys that remain: O(*k*) once per doubling,
  /// amortised O(1) per key made. Registrations isolated to an actor are checked on it.
  @inlinable
  func sweep(_ events: [Event<Payload>]) {
    for event in events { event.list.purge(checkingElsewhere: true) }
    keys.withLock { $0.sweepAt = max(64, $0.slots.count * 2) }
  }

  /// Adds `handler` to the observed-change handlers of `key`, made if it has none, reported to
  /// by its list now and by every list the key has later.
  ///
  /// Added under the table's lock: a key's handlers are dropped, under that lock, once they are
  /// empty (a removal or another handler's cancel), so handlers found and then added to after
  /// the lock could be dropped in between, and the new handler would hear nothing again.
  func addObservedChange(of key: Key, _ handler: @escaping @Sendable (Bool) -> Void)
    -> Subscription
  {
    keys.withLock { table in
      let changes: ObservedChanges
      if let existing = table.changes[key] {
        changes = existing
      } else {
        changes = ObservedChanges()
        table.changes[key] = changes
        table.slots[key]?.event.list.reportObservedChanges(to: changes)
      }
      return changes.add(handler)
    }
  }

  /// Drops the observed-change handlers of `key` once none is left, unless the key has a list,
  /// which reports to them until it is removed (and drops them then).
  func dropObservedChangesIfUnused(_ key: Key) {
    let dropped = keys.withLock { table -> (key: Key, value: ObservedChanges)? in
      guard table.slots[key] == nil, let index = table.changes.index(forKey: key),
        !table.changes.values[index].hasHandlers
      else { return nil }
      return table.changes.remove(at: index)
    }
    _ = dropped
  }
}
