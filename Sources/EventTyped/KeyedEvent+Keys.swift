import EventCore
public import Synchronization

/// A keyed event's keys: each live key's list, the observed-change handlers of its channels,
/// and when the next sweep is due. Guarded by ``KeyedEvent/keys``.
@usableFromInline struct KeyTable<Key: Hashable & Sendable, Payload: Sendable> {
  /// One key's list, and the registrations under way on it.
  @usableFromInline struct List {
    @usableFromInline let event: Event<Payload>
    @usableFromInline let registrations: RegistrationsUnderWay

    @inlinable init(event: Event<Payload>, registrations: RegistrationsUnderWay) {
      self.event = event
      self.registrations = registrations
    }
  }

  /// One live key: its list, made by its first registration other than a `next`, and the
  /// `next` calls that began waiting while it had none (see `KeyWaiters`).
  @usableFromInline struct Slot {
    // The list's two references apart, so that a post copies out the event alone: reading an
    // optional `List` copies both (two more retains and releases, and outlined copies).
    @usableFromInline var event: Event<Payload>?
    @usableFromInline var registrations: RegistrationsUnderWay?
    @usableFromInline var waiters: KeyWaiters<Payload>

    @inlinable init() {
      self.event = nil
      self.registrations = nil
      self.waiters = .none
    }

    @inlinable var list: List? {
      get {
        guard let event, let registrations else { return nil }
        return List(event: event, registrations: registrations)
      }
      set {
        event = newValue?.event
        registrations = newValue?.registrations
      }
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
  /// last release may release handlers, a waiter's its predicate, and a key may be a class
  /// whose deinit is user code. `changed` is the key's observed-change record, to deliver to.
  @usableFromInline struct Removed {
    @usableFromInline var slot: (key: Key, value: Slot)?
    @usableFromInline var list: List?
    @usableFromInline var waiters: KeyWaiters<Payload> = .none
    @usableFromInline var changes: (key: Key, value: ObservedChanges)?
    @usableFromInline var changed: ObservedChanges?

    @inlinable init() {}

    /// Delivers the observed change the removal recorded, if any; after the lock.
    @inlinable func finish() {
      changed?.deliver()
    }
  }

  /// Removes the list of the key at `index` if it is empty and no registration is under way:
  /// with the key if no `next` waits on it either, and then its observed-change handlers'
  /// record if none is left.
  @inlinable
  mutating func removeListIfUnused(at index: Dictionary<Key, Slot>.Index) -> Removed? {
    guard let list = slots.values[index].list, !list.registrations.any,
      !list.event.list.isObserved
    else { return nil }
    var removed = Removed()
    guard slots.values[index].waiters.isEmpty else {
      removed.list = list
      slots.values[index].list = nil
      return removed
    }
    removeSlot(at: index, into: &removed)
    return removed
  }

  /// Removes the key at `index`, and its observed-change record if it has no handler left.
  @inlinable
  mutating func removeSlot(at index: Dictionary<Key, Slot>.Index, into removed: inout Removed) {
    let slot = slots.remove(at: index)
    removed.slot = slot
    guard !changes.isEmpty, let changesIndex = changes.index(forKey: slot.key),
      !changes.values[changesIndex].hasHandlers
    else { return }
    removed.changes = changes.remove(at: changesIndex)
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
    keys.withLock { table in
      table.slots.index(forKey: key).flatMap { table.slots.values[$0].event }
    }
  }

  /// What a post to `key` reaches: its list and its waits, or `nil` when the key has no slot.
  @inlinable
  func lookUp(_ key: Key) -> (Event<Payload>?, KeyWaiters<Payload>)? {
    // Through the index, so that only what a post reads is copied out of the slot.
    keys.withLock { table in
      guard let index = table.slots.index(forKey: key) else { return nil }
      let event = table.slots.values[index].event
      // Checked in place: copying the waits out costs an outlined copy even when there are none.
      guard !table.slots.values[index].waiters.isEmpty else { return (event, .none) }
      return (event, table.slots.values[index].waiters)
    }
  }

  /// The list of `key`, if it has one now, and the number of its waiting `next` calls that are
  /// outside it.
  @inlinable
  func registrations(of key: Key) -> (event: Event<Payload>?, waiting: Int) {
    keys.withLock { table in
      guard let index = table.slots.index(forKey: key) else { return (nil, 0) }
      return (table.slots.values[index].event, table.slots.values[index].waiters.liveCount)
    }
  }

  /// The number of `key`'s registrations, without a purge.
  @inlinable
  func registeredCount(of key: Key) -> Int {
    let (event, waiting) = registrations(of: key)
    return (event?.list.registeredCount ?? 0) + waiting
  }

  /// The list of `key`, made if it has none, held until the matching ``endRegistering(_:)``: the
  /// caller registers on it in between.
  ///
  /// Making a key may be the one that doubles the number of keys since the last sweep: that
  /// caller sweeps, after the lock.
  @inlinable
  func beginRegistering(_ key: Key) -> Event<Payload> {
    let found = keys.withLock { table -> Event<Payload>? in
      guard let index = table.slots.index(forKey: key),
        let list = table.slots.values[index].list
      else { return nil }
      return Self.enter(list)
    }
    if let found { return found }
    // A new key's list is made outside the lock: making an event allocates several objects, and
    // posts to every other key wait on this lock for their lookup.
    let made = makeList(for: key)
    let (event, sweep) = keys.withLock { table -> (Event<Payload>, [Event<Payload>]?) in
      // One hash: the list made above is used only if no other registration made one meanwhile.
      let event = Self.enter(made, into: &table.slots[key, default: KeyTable.Slot()])
      // The new list reports to the key's channel handlers from the critical section that
      // publishes it, so none can be added or dropped in between.
      if event === made.event, !table.changes.isEmpty, let changes = table.changes[key] {
        event.list.reportObservedChanges(to: changes)
      }
      guard table.slots.count >= table.sweepAt else { return (event, nil) }
      table.sweepAt = .max
      return (event, table.slots.values.compactMap { $0.event })
    }
    if let sweep { self.sweep(sweep) }
    return event
  }

  @inlinable
  static func enter(_ list: KeyTable<Key, Payload>.List) -> Event<Payload> {
    list.registrations.add(1)
    return list.event
  }

  /// Enters the slot's list, giving it `made` if it has none.
  @inlinable
  static func enter(
    _ made: KeyTable<Key, Payload>.List, into slot: inout KeyTable<Key, Payload>.Slot
  )
    -> Event<Payload>
  {
    if slot.event == nil { slot.list = made }
    return enter(slot.list.unsafelyUnwrapped)
  }

  /// Ends a registration begun by ``beginRegistering(_:)``; removes the key's list if it is
  /// empty.
  @inlinable
  func endRegistering(_ key: Key) {
    let removed = keys.withLock { table -> KeyTable<Key, Payload>.Removed? in
      guard let index = table.slots.index(forKey: key) else { return nil }
      table.slots.values[index].registrations?.add(-1)
      return table.removeListIfUnused(at: index)
    }
    // Released after the lock (see `KeyTable.Removed`).
    removed?.finish()
  }

  /// Removes `key`'s list if it is empty and no registration is under way: the hook of each
  /// key's list, called when its last registration ends.
  @inlinable
  func removeIfUnused(_ key: Key, registrations: RegistrationsUnderWay) {
    // The registration under way removes the key when it ends, if the list is still empty.
    guard !registrations.any else { return }
    let removed = keys.withLock { table -> KeyTable<Key, Payload>.Removed? in
      guard let index = table.slots.index(forKey: key),
        table.slots.values[index].registrations === registrations
      else { return nil }
      return table.removeListIfUnused(at: index)
    }
    removed?.finish()
  }

  /// A new key's list, which removes itself from the key when its last registration ends.
  @inlinable
  func makeList(for key: Key) -> KeyTable<Key, Payload>.List {
    // Weak: the table holds the list, and a list may outlive its keyed event (a post in
    // progress holds it).
    let registrations = RegistrationsUnderWay()
    let event = Event<Payload>(
      delivery: delivery, errorChannel: errorChannel, flow: flow(of: key)
    ) {
      [weak self] in self?.removeIfUnused(key, registrations: registrations)
    }
    // The key is described (user code) only if the registration warning prints.
    event.list.nameChannel { "KeyedEvent<\(Key.self), \(Payload.self)> key \(key)" }
    return KeyTable.List(event: event, registrations: registrations)
  }

  /// The flow of `key`'s list: the keyed event's when unbounded; with a bound, one of the key's
  /// own, which posts the key's drops to ``drops`` with the key.
  @usableFromInline
  func flow(of key: Key) -> FlowControl {
    guard flow.isBounded else { return flow }
    let keyed = flow
    let own = FlowControl(partOf: keyed) { "KeyedEvent<\(Key.self), \(Payload.self)> key \(key)" }
    own.deliverDrops { drop in
      guard let drops = keyed.drops.load(as: Event<(Key, Drop)>.self), drops.observerCount > 0
      else { return false }
      drops.post((key, drop))
      return true
    }
    return own
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
        let slot = table.slots[key]
        changes = ObservedChanges(elsewhere: slot?.waiters.liveCount ?? 0)
        table.changes[key] = changes
        slot?.list?.event.list.reportObservedChanges(to: changes)
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
