public import Synchronization

/// The ordered, thread-safe list of registrations that every Events module delivers through.
///
/// It implements the guarantees that hold in every module once:
/// - Registration order: entries are delivered by priority, higher first, then in the order
///   they were inserted; re-inserting a keyed observer moves it to the end of its priority.
/// - Snapshot delivery: a post delivers to the entries present when it started, minus those
///   cancelled since. It takes no lock and allocates nothing, and a change (an insert, a removal)
///   costs O(1), amortised, whether or not posts are running: see "Why a change is O(1)" below.
/// - Cancel means cancelled: each entry's liveness is checked immediately before its handler
///   runs, so an entry cancelled mid-post, or with a delivery queued, is skipped.
/// - Weak purge: entries whose observer or owner is gone are dropped by the next post or count,
///   and by an insert once the list has grown by half since its last purge, so memory stays
///   within a constant factor of the live registrations even on a list that is never posted to.
/// - Isolation is respected in the purge too: an entry registered from code isolated to an actor
///   has its observer and owners loaded only on that actor (a strong reference taken elsewhere
///   could be the last, and run their `deinit` off it), so posts, counts and purges made
///   elsewhere drop it only once cancelled or once that actor is gone; its actor ends it when a
///   delivery finds it dead, and an insert's purge has it checked there (see
///   `ObserverEntry.isAlive`).
/// - One post, one order: a post carries a ``PostContext`` from entry to entry, so that its
///   main-actor handlers are queued behind the first of them that still has a delivery queued.
/// - No user code under the lock: handlers run after the lock is released, and everything a
///   mutation releases (entries, old storages, hence handler closures and the objects they
///   capture) is released after the lock too.
/// - Never waiting: removing an entry marks it cancelled and returns; nothing here waits for a
///   handler running on another thread.
///
/// ## Why a change is O(1)
///
/// The entries live in an ``ObserverStorage``, which holds each of them once and which posts read
/// in place, through an atomic pointer, without retaining the entries or their handlers: no
/// retain or release of an entry runs per post.
///
/// - An insert writes the next free slot and then raises the storage's count (release ordering):
///   posts that started earlier never read past their count, so they cannot see it. Only when
///   the storage is full, or a priority places the entry before the end, is a new one built:
///   O(*n*) once per O(*n*) inserts.
/// - A removal cancels the entry, which every post checks before calling it, and then clears its
///   slot (releasing the entry, after the lock) if no post holds the storage. Otherwise the slot
///   waits in `State.pending`, and the last post to leave the storage clears it. Once cleared and
///   pending slots outnumber live ones, the storage is compacted.
/// - Posts and writers share each storage by the publication protocol of
///   `ObserverList+Publication.swift`: a writer clears or replaces a storage only when no post
///   holds it or can be about to, and the last post out cleans up what waited for it.
///
/// - Complexity: insert and remove are amortised O(1); a post is O(*n*) in the entries it reaches,
///   with no retain or release per entry.
@usableFromInline package final class ObserverList<Payload>: Sendable {
  @usableFromInline package typealias Entry = ObserverEntry<Payload>

  @usableFromInline struct State {
    /// The entries, in delivery order; its pointer is ``published``.
    @usableFromInline var storage: ObserverStorage
    @usableFromInline var liveCount: Int
    /// The keyed entries, unretained (see ``ObserverKeys``).
    @usableFromInline var byKey: ObserverKeys
    /// Slots of `storage` whose entry has left but which a post held when it did.
    @usableFromInline var pending: [Int]
    /// Storages replaced while posts held them; released once none does.
    @usableFromInline var retired: [ObserverStorage]
    /// At most the priority of the last registered entry (`Int.max` when there was none): an
    /// entry of this priority or lower goes to the end without a search. Removals leave it as
    /// it is, which only ever makes it lower than the last entry's: a search then finds the
    /// place.
    @usableFromInline var tailPriority: Int
    /// Inserts since the last purge, less those whose slots a removal gave back (see
    /// `clearNow`); an insert that brings it past half the live count purges.
    @usableFromInline var insertsSincePurge: Int
    /// How often a writer took ``published`` down to have the storage to itself: what a test
    /// reads to check that a post holding the storage keeps the others off the lock.
    @usableFromInline var takeDowns: Int
    /// What the list keeps for later registrations (an `Event`'s replay).
    @usableFromInline var retention: Retention<Payload>
    /// The threshold, name and once-flag of the registration warning.
    @usableFromInline var registrationWarning: RegistrationWarning

    // Inlinable, with every field set here rather than by property initializers (which the
    // module runs unspecialized), so that a list is made at its payload's type: a keyed event
    // makes one per key.
    @inlinable init(retention: RetentionPolicy) {
      self.storage = ObserverStorage(capacity: 4)
      self.liveCount = 0
      self.byKey = ObserverKeys()
      self.pending = []
      self.retired = []
      self.tailPriority = Int.max
      self.insertsSincePurge = 0
      self.takeDowns = 0
      self.retention = Retention(retention)
      self.registrationWarning = RegistrationWarning()
    }
  }

  /// What a mutation drops, handed out of the lock so that the entries (their handlers, and
  /// what those captured) are released after it.
  @usableFromInline struct Released: Sendable {
    // `nil` rather than empty, here and in `entries`: dropping an empty array is a call to
    // release its (immortal) storage, at the end of every mutation.
    @usableFromInline var storages: [ObserverStorage]?
    /// The entries that left beyond ``entry``.
    @usableFromInline var entries: [Entry]?
    /// One entry, without the allocation of an array: an unregistration or a replacement drops
    /// one.
    @usableFromInline var entry: Entry?
    /// Whether the mutation recorded a change of ``isObserved`` for its handlers.
    @usableFromInline var changedObservation = false
    /// Whether the mutation ended the list's last live registration, for ``whenEmpty``.
    @usableFromInline var emptied = false
    /// Whether the mutation crossed the registration warning's threshold and claimed it.
    @usableFromInline var warnsOfRegistrations = false

    @inlinable init() {}

    /// Takes over the storage's reference to an entry that left.
    @inlinable mutating func take(_ bits: UInt) {
      let entry = unsafeDowncast(
        ObserverStorage.unmanaged(bits).takeRetainedValue(), to: Entry.self)
      if self.entry == nil {
        self.entry = entry
      } else if entries == nil {
        entries = [entry]
      } else {
        entries?.append(entry)
      }
    }

    /// Takes over a storage that no post holds any more.
    @inlinable mutating func drop(_ storage: ObserverStorage) {
      if storages == nil { storages = [storage] } else { storages?.append(storage) }
    }
  }

  /// A post's hold on a storage: the storage stays allocated and its first `count` slots keep
  /// their entries (cleared slots excepted) until ``leave(_:)``.
  @usableFromInline struct Hold {
    @usableFromInline let storage: Unmanaged<ObserverStorage>
    @usableFromInline let count: Int

    @inlinable init(storage: Unmanaged<ObserverStorage>, count: Int) {
      self.storage = storage
      self.count = count
    }

    /// The entry in slot `index`, without a retain, or `nil` for a cleared slot.
    @inlinable func entry(at index: Int) -> Unmanaged<Entry>? {
      let bits = storage._withUnsafeGuaranteedRef { $0.slots[index] }
      guard bits != 0 else { return nil }
      return Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }
  }

  @usableFromInline let state: Lock<State>
  /// Whether the list keeps payloads for later registrations; fixed at creation, so a post
  /// decides its path without the lock.
  @usableFromInline package let retains: Bool

  /// The bit pattern of `State.storage`'s pointer, unretained (the state holds it), or 0 while a
  /// writer has the storage to itself. Written only under the lock; read by posts without it.
  @usableFromInline let published: Atomic<UInt>
  /// Posts between loading ``published`` and joining that storage's `holders`.
  @usableFromInline let readers: Atomic<Int>
  /// Whether pending slots or retired storages wait for the posts that hold them to leave.
  @usableFromInline let needsCleanup: Atomic<Bool>
  /// Whether a retired storage no post holds was kept only because a post was between loading
  /// ``published`` and joining a storage: the post that brings ``readers`` to 0 cleans up.
  @usableFromInline let retiredAwaitReaders: Atomic<Bool>
  /// `State.liveCount`, for ``isObserved`` without the lock. Written under the lock.
  @usableFromInline let liveCount: Atomic<Int>
  /// The ``ObservedChanges`` of ``onObservedChange(_:)``, made by its first call.
  @usableFromInline let observedChanges: LazyReference
  /// The passive registrations (``tap(_:)``), in a list of their own, made by the first.
  @usableFromInline let taps: LazyReference
  /// Called after the lock, on the changing thread, each time a mutation ends the last live
  /// registration: a keyed event removes the key's list then.
  @usableFromInline let whenEmpty: (@Sendable () -> Void)?
  /// The backlog of the list's registrations and where their drops go; `nil`: unbounded, and
  /// warnings name no channel. Read by a registration's first queued call, never by a post.
  @usableFromInline package let flow: FlowControl?

  /// Creates an empty list.
  ///
  /// - Parameters:
  ///   - retention: What the list keeps of its posts for registrations made later (`.none` by
  ///     default); see ``Retention``.
  ///   - whenEmpty: Called after each mutation that ends the last live registration, outside
  ///     the lock.
  // Inlinable, with every field set here (see `State.init(retention:)`).
  @inlinable package init(
    retention: RetentionPolicy = .none, whenEmpty: (@Sendable () -> Void)? = nil,
    flow: FlowControl? = nil
  ) {
    let state = State(retention: retention)
    published = Atomic(ObserverStorage.bits(of: state.storage))
    readers = Atomic(0)
    needsCleanup = Atomic(false)
    retiredAwaitReaders = Atomic(false)
    liveCount = Atomic(0)
    observedChanges = LazyReference()
    taps = LazyReference()
    self.state = Lock(state)
    retains = retention != .none
    self.whenEmpty = whenEmpty
    self.flow = flow
  }

  // MARK: Changes

  /// Registers `entry`, replacing the keyed entry of the same observer, if any.
  ///
  /// Purges dead entries once the list has grown by half since the last purge (at least 16
  /// inserts), which keeps insert amortised O(1) and dead entries within a constant factor of
  /// the live ones without waiting for a post.
  @inlinable
  package func insert(_ entry: Entry) {
    let (released, purgeDue) = state.withLock { state -> (Released, Bool) in
      var released = Released()
      let purgeDue = insert(entry, into: &state, releasing: &released)
      return (released, purgeDue)
    }
    finish(released)
    if purgeDue { purgeAndCheckElsewhere() }
  }

  /// The periodic purge of an insert: purges what the calling thread can tell is dead, and has
  /// each registration it may not check here (one isolated to an actor the caller is not on;
  /// see `ObserverEntry.isAlive`) checked on its actor, so that dead registrations stay within a
  /// constant factor of the live ones on a list that is never posted to (guarantee 1) without a
  /// weak load off their actor (guarantee 12).
  @inlinable
  func purgeAndCheckElsewhere() {
    purge(checkingElsewhere: true)
  }

  /// Inserts under the lock; what it replaces goes to `released`.
  ///
  /// - Returns: Whether a purge is due, to run once the lock is released.
  @inlinable
  func insert(_ entry: Entry, into state: inout State, releasing released: inout Released)
    -> Bool
  {
    // The observer's earlier entry, if any, is replaced in the table first: its removal then
    // leaves the table alone.
    if let key = entry.key, let previous = state.byKey.set(entry, for: key) {
      previous._withUnsafeGuaranteedRef {
        remove($0, from: &state, releasing: &released, keyedAlready: true)
      }
    }
    place(entry, in: &state, releasing: &released)
    state.liveCount += 1
    liveCount.store(state.liveCount, ordering: .releasing)
    if state.liveCount == 1 { recordObservation(true, into: &released) }
    // One relaxed load and one compare; the rest waits for `finish` (after the lock).
    if state.registrationWarning.isExceeded(by: state.liveCount) {
      released.warnsOfRegistrations = state.registrationWarning.claim()
    }
    state.insertsSincePurge += 1
    let purgeDue = state.insertsSincePurge >= max(16, state.liveCount / 2)
    if purgeDue { state.insertsSincePurge = 0 }
    return purgeDue
  }

  /// Puts `entry` after every entry of its priority or higher: in the next free slot when that
  /// is its place, otherwise in a storage rebuilt around it.
  @inlinable
  func place(_ entry: Entry, in state: inout State, releasing released: inout Released) {
    let storage = state.storage
    let count = storage.count.load(ordering: .relaxed)
    let priority = entry.priority
    let position =
      priority <= state.tailPriority
      ? count : insertionIndex(for: priority, in: storage, count: count)
    if position == count { state.tailPriority = priority }
    if position == count && count < storage.capacity {
      entry.index = count
      storage.slots[count] = ObserverStorage.retainedBits(entry)
      storage.count.store(count + 1, ordering: .releasing)
      return
    }
    rebuild(&state, inserting: entry, at: position, releasing: &released)
  }

  /// The slot of the first entry of a lower priority than `priority` after the last one of
  /// `priority` or higher; the next free slot if there is none.
  ///
  /// - Complexity: O(1) when `priority` is not above the last entry's (every entry of a list
  ///   that uses no priorities); O(*n*) otherwise.
  @inlinable
  func insertionIndex(for priority: Int, in storage: ObserverStorage, count: Int) -> Int {
    // Cleared slots do not count: after them, the next free slot is as good as any.
    var position = count
    var index = count
    while index > 0 {
      let bits = storage.slots[index - 1]
      if bits != 0 {
        let before = Unmanaged<Entry>.fromOpaque(
          UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
        if before._withUnsafeGuaranteedRef({ $0.priority }) >= priority { break }
        position = index - 1
      }
      index -= 1
    }
    return position
  }

  /// Replaces the storage with one that holds the registered entries (and `inserting`, at slot
  /// `position` of the old numbering), with room for as many again; under the lock.
  ///
  /// When no post holds the old storage the entries move, without a retain, and the slots of
  /// entries that left are released; otherwise the new storage retains its own references and
  /// the old one is retired until its posts leave.
  @inlinable
  func rebuild(
    _ state: inout State, inserting: Entry? = nil, at position: Int = 0,
    releasing released: inout Released
  ) {
    let old = state.storage
    let count = old.count.load(ordering: .relaxed)
    let exclusive =
      old.holders.load(ordering: .sequentiallyConsistent) == 0 && takeExclusive(&state)
    let live = state.liveCount + (inserting == nil ? 0 : 1)
    let storage = ObserverStorage(capacity: max(4, live * 2))
    var next = 0
    state.tailPriority = Int.max
    func append(_ entry: Entry, bits: UInt) {
      entry.index = next
      storage.slots[next] = bits
      state.tailPriority = entry.priority
      next += 1
    }
    for index in 0...count {
      if index == position, let inserting {
        append(inserting, bits: ObserverStorage.retainedBits(inserting))
      }
      guard index < count else { break }
      let bits = old.slots[index]
      guard bits != 0 else { continue }
      let entry = Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
      let isRegistered = entry._withUnsafeGuaranteedRef { $0.index == index }
      if isRegistered {
        // Moved when the old storage is ours alone; otherwise both keep a reference.
        append(
          entry.takeUnretainedValue(),
          bits: exclusive ? bits : ObserverStorage.retainedBits(entry.takeUnretainedValue()))
      } else if exclusive {
        released.take(bits)
      }
      if exclusive { old.slots[index] = 0 }
    }
    storage.count.store(next, ordering: .releasing)
    state.storage = storage
    state.pending.removeAll()
    if exclusive {
      released.drop(old)
    } else {
      state.retired.append(old)
      needsCleanup.store(true, ordering: .sequentiallyConsistent)
    }
    publish(state)
    tidy(&state, into: &released)
  }

  /// Registers `entry` and returns the token that ends it.
  ///
  /// - Parameters:
  ///   - entry: The registration to insert.
  ///   - endsWithToken: `true` for token-held registrations, which end when the token is
  ///     released; `false` for registrations that last as long as their observer, whose token
  ///     the caller may drop.
  /// - Returns: The token whose `cancel()` ends the registration.
  @inlinable
  package func subscribe(_ entry: Entry, endsWithToken: Bool) -> Subscription {
    entry.list = self
    entry.leave = { list, entry in list.remove(entry) }
    insert(entry)
    return Subscription(registration: entry, cancelsOnDeinit: endsWithToken)
  }

  /// Registers `entry` with no token: for a once-registration that every path ends by claiming
  /// it (a `next`: its payload, its timeout, its cancellation), which leaves the list. A token
  /// would only cancel it once more, and cost an object and the side table that the token's
  /// weak reference gives the entry.
  @inlinable
  package func subscribeClaimed(_ entry: Entry) {
    entry.list = self
    entry.leave = { list, entry in list.remove(entry) }
    insert(entry)
  }

  /// Ends `entry`'s registration. Does nothing if it is no longer registered.
  @inlinable
  package func remove(_ entry: Entry) {
    let released = state.withLock { state -> Released? in
      guard Self.contains(entry, in: state) else {
        // A once-registration that took a replay is never inserted.
        state.retention.giveBack(entry.takeUnstarted())
        return nil
      }
      var released = Released()
      remove(entry, from: &state, releasing: &released)
      return released
    }
    if let released { finish(released) }
  }

  /// Ends the keyed registration of `observer`, if it has one.
  @inlinable
  package func removeObserver(_ observer: AnyObject) {
    let released = state.withLock { state -> Released in
      // The caller holds `observer`, so an entry under its identity is either its own or one
      // whose observer died and whose address was reused: both are to go.
      guard
        let entry = state.byKey.removeEntry(for: ObjectIdentifier(observer), as: Entry.self)
      else { return Released() }
      var released = Released()
      entry._withUnsafeGuaranteedRef {
        remove($0, from: &state, releasing: &released, keyedAlready: true)
      }
      return released
    }
    finish(released)
  }

  /// Ends every registration.
  @usableFromInline package func removeAll() {
    var ended: [Entry] = []
    let released = state.withLock { state -> Released in
      var entries: [Entry] = []
      walk(state) { entry, _ in entries.append(entry) }
      for entry in entries where entry.liveness.cancel() { ended.append(entry) }
      // The newest first, so the oldest registration's payloads end up at the front.
      for entry in entries.reversed() { state.retention.giveBack(entry.takeUnstarted()) }
      for entry in entries { entry.index = -1 }
      var released = Released()
      if state.liveCount > 0 { recordObservation(false, into: &released) }
      state.liveCount = 0
      liveCount.store(0, ordering: .releasing)
      state.byKey.removeAll()
      state.insertsSincePurge = 0
      rebuild(&state, releasing: &released)
      return released
    }
    finish(released)
    // A wait whose registration this ended can no longer be settled by a post.
    for entry in ended { entry.reportRemoval() }
  }

  /// Calls `body` with every registered entry of the current storage and its slot; under the
  /// lock.
  @inlinable
  func walk(_ state: State, _ body: (Entry, Int) -> Void) {
    let storage = state.storage
    for index in 0..<storage.count.load(ordering: .relaxed) where storage.slots[index] != 0 {
      let entry = unsafeDowncast(
        ObserverStorage.unmanaged(storage.slots[index]).takeUnretainedValue(), to: Entry.self)
      if entry.index == index { body(entry, index) }
    }
  }

  @inlinable
  static func contains(_ entry: Entry, in state: State) -> Bool {
    entry.index >= 0 && entry.index < state.storage.count.load(ordering: .relaxed)
      && state.storage.slots[entry.index] == ObserverStorage.bits(of: entry)
  }

  /// Removes a registered entry and cancels it; its slot is cleared at once when no post holds
  /// the storage, later otherwise, and the storage compacted once most of its slots are empty.
  ///
  /// `keyedAlready`: the caller has taken the entry out of `byKey` (or replaced it there), so
  /// that one probe of the table served both the lookup and the change.
  @inlinable
  func remove(
    _ entry: Entry, from state: inout State, releasing released: inout Released,
    keyedAlready: Bool = false
  ) {
    entry.liveness.cancel()
    if entry.state.load(ordering: .relaxed) & Liveness.handOverBit != 0 {
      state.retention.giveBack(entry.takeUnstarted())
    }
    state.liveCount -= 1
    liveCount.store(state.liveCount, ordering: .releasing)
    if state.liveCount == 0 { recordObservation(false, into: &released) }
    if !keyedAlready, let key = entry.key { state.byKey.remove(entry, for: key) }
    let index = entry.index
    entry.index = -1
    let count = state.storage.count.load(ordering: .relaxed)
    if count >= 16 && state.liveCount * 2 < count {
      rebuild(&state, releasing: &released)
      return
    }
    // Nothing else waits and no post holds the storage: the slot is cleared now, without the
    // round trip through `pending` and `tidy` (an array append and removal per change).
    if state.pending.isEmpty && state.retired.isEmpty && clearNow(index, in: &state, &released) {
      return
    }
    state.pending.append(index)
    needsCleanup.store(true, ordering: .sequentiallyConsistent)
    tidy(&state, into: &released)
  }

  /// Records that the list gained its first live registration or lost its last, for the
  /// handlers of ``onObservedChange(_:)``; under the lock.
  @inlinable
  func recordObservation(_ isObserved: Bool, into released: inout Released) {
    if !isObserved { released.emptied = true }
    guard let changes = observedChanges.load(as: ObservedChanges.self) else { return }
    changes.record(isObserved)
    released.changedObservation = true
  }

  /// Ends a mutation after the lock: delivers the change of ``isObserved`` it recorded, if any;
  /// the caller then drops what it released.
  @inlinable
  func finish(_ released: borrowing Released) {
    if released.changedObservation {
      observedChanges.load(as: ObservedChanges.self)?.deliver()
    }
    if released.emptied, let whenEmpty { whenEmpty() }
    if released.warnsOfRegistrations { printRegistrationWarning() }
  }

  /// Whether any live registration exists, as far as the list knows: an observer's death
  /// counts once a post, a count or an insert has purged it.
  @inlinable package var isObserved: Bool { liveCount.load(ordering: .acquiring) > 0 }

  /// The registrations in the list now, without the purge of ``count``: an observer's death
  /// counts once a post, a count or an insert has purged it.
  @inlinable package var registeredCount: Int { liveCount.load(ordering: .acquiring) }

  /// Calls `handler` with `true` when the list gains its first live registration and `false`
  /// when it loses its last, from now on, coalesced to the net state, outside every lock; see
  /// ``ObservedChanges``.
  package func onObservedChange(_ handler: @escaping @Sendable (Bool) -> Void) -> Subscription {
    let changes = state.withLock { _ in
      observedChanges.load(as: ObservedChanges.self)
        ?? observedChanges.storeIfNil(ObservedChanges())
    }
    return changes.add(handler)
  }

  /// Records this list's changes of ``isObserved`` in `changes`, which outlives it: a keyed
  /// event's channel keeps its handlers while the key's list is removed and made again. Under
  /// the lock, so that no change falls between the list's state and the first record.
  @usableFromInline package func reportObservedChanges(to changes: ObservedChanges) {
    state.withLock { state in
      _ = observedChanges.storeIfNil(changes)
      changes.follow(listObserved: state.liveCount > 0)
    }
  }

  // MARK: Reading

  /// The live registrations. Purges the dead ones it finds.
  ///
  /// - Complexity: O(*n*).
  @usableFromInline package var count: Int {
    let entries = snapshot()
    var live = 0
    for entry in entries where entry.isAlive { live += 1 }
    if live != entries.count { purge(entries) }
    return live
  }

  /// The entries registered now, in delivery order: a copy, for the paths that keep them beyond
  /// one call (counts, flushes, jobs on another actor). Posts use ``forEachEntry(_:)``.
  @inlinable
  package func snapshot() -> ContiguousArray<Entry> {
    let hold = hold()
    var entries = ContiguousArray<Entry>()
    entries.reserveCapacity(hold.count)
    for index in 0..<hold.count {
      guard let entry = hold.entry(at: index) else { continue }
      let value = entry.takeUnretainedValue()
      if !value.isCancelled { entries.append(value) }
    }
    leave(hold)
    return entries
  }

  /// Runs `body` with the entries registered when it is called, without a copy or a retain: the
  /// building block of posts that merge several lists (see ``Hold``).
  @inlinable
  package func withEntries<Result>(_ body: (Entries) -> Result) -> Result {
    let hold = hold()
    defer { leave(hold) }
    return body(Entries(hold: hold))
  }

  /// The entries of a post, read in place; valid inside ``withEntries(_:)`` only.
  @usableFromInline package struct Entries {
    @usableFromInline let hold: Hold

    @inlinable init(hold: Hold) { self.hold = hold }

    /// The number of slots, cleared ones included.
    @inlinable package var count: Int { hold.count }

    /// Calls `body` with the entry in slot `index`, without a retain; `nil` for a cleared slot.
    @inlinable
    package func withEntry<R>(at index: Int, _ body: (Entry?) -> R) -> R {
      guard let entry = hold.entry(at: index) else { return body(nil) }
      return entry._withUnsafeGuaranteedRef { body($0) }
    }
  }

  /// Runs `body` for each entry registered when it is called, in delivery order, then purges
  /// the entries for which it returned `false` (dead) that are not cancelled already.
  ///
  /// The building block of every post; `body` should call the entry's `invoke` or `deliver`. It
  /// receives each entry without a retain: the storage holds it until the loop ends.
  ///
  /// - Returns: The number of entries for which `body` returned `true`.
  @inlinable @discardableResult
  package func forEachEntry(_ body: (Entry) -> Bool) -> Int {
    let hold = hold()
    var sawDead = false
    var reached = 0
    for index in 0..<hold.count {
      guard let entry = hold.entry(at: index) else { continue }
      entry._withUnsafeGuaranteedRef { entry in
        if body(entry) {
          reached += 1
        } else if !entry.isCancelled {
          sawDead = true
        }
      }
    }
    leave(hold)
    if sawDead { purge() }
    return reached
  }

  /// Drops the dead entries, walking the storage in place. The liveness checks, which load weak
  /// references, run before the lock is taken.
  ///
  /// - Parameter checkingElsewhere: Whether to have each live registration that may not be
  ///   checked on this thread checked on its actor (see ``purgeAndCheckElsewhere()``).
  @inlinable
  package func purge(checkingElsewhere: Bool = false) {
    let hold = hold()
    var dead: [Entry] = []
    for index in 0..<hold.count {
      guard let entry = hold.entry(at: index) else { continue }
      entry._withUnsafeGuaranteedRef { entry in
        guard !entry.isCancelled else { return }
        if !entry.isAlive {
          dead.append(entry)
        } else if checkingElsewhere && !entry.mayLoadReferencesHere {
          entry.checkOnItsActor()
        }
      }
    }
    leave(hold)
    purge(dead)
  }

  /// Drops the entries of `entries` that are dead. The liveness checks, which load weak
  /// references, run before the lock is taken.
  @inlinable
  package func purge<Candidates: Sequence<Entry>>(_ entries: Candidates) {
    let dead = entries.filter { !$0.isCancelled && !$0.isAlive }
    guard !dead.isEmpty else { return }
    let released = state.withLock { state -> Released in
      var released = Released()
      for entry in dead where Self.contains(entry, in: state) {
        remove(entry, from: &state, releasing: &released)
      }
      return released
    }
    finish(released)
  }
}

extension ObserverList where Payload: Sendable {
  /// Delivers `payload` to every live registration, each as its `Delivery` says.
  ///
  /// Handlers added during the post get the next one; handlers cancelled during it, and
  /// observers released by an earlier handler, are skipped.
  ///
  /// - Returns: The number of registrations reached (called or queued).
  @inlinable @discardableResult
  package func post(_ payload: Payload) -> Int {
    if let taps = taps.load(as: ObserverList.self) { taps.post(payload) }
    var context = PostContext()
    let reached = forEachEntry { $0.deliver(payload, &context) }
    return reached - context.refused
  }

  /// Registers a passive `entry`: it receives every post from now on, before the list's
  /// registrations, and nothing else sees it. It is left out of the counts a post returns,
  /// ``isObserved``, ``onObservedChange(_:)``, ``count``, and the decision to hold a post for a
  /// later registration, and it takes nothing retained or held: what a test's recorder needs,
  /// so that recording an event does not change the code under test.
  package func tap(_ entry: Entry) -> Subscription {
    let taps = taps.load(as: ObserverList.self) ?? taps.storeIfNil(ObserverList())
    return taps.subscribe(entry, endsWithToken: true)
  }

  /// Registers `entry`, first delivering to it what the list retains, through its own delivery.
  ///
  /// No gap and no duplicate: the retained payloads are read, and the entry published, in one
  /// critical section, and ``postRetaining(_:)`` records a payload and reads the registrations
  /// in one critical section too (it takes the lock, unlike a plain post). So every post is either
  /// retained before the registration (and replayed) or made after it (and delivered live), never
  /// both, never neither. Live deliveries that arrive while the replay runs wait behind it
  /// (`ObserverEntry.beginReplay`), so the entry receives everything in post order. With
  /// synchronous delivery the replay has run when this returns.
  ///
  /// A once-registration that has something to replay fires on its first replayed payload and
  /// is never added to the list.
  @inlinable
  package func subscribeReplaying(_ entry: Entry, endsWithToken: Bool) -> Subscription {
    guard retains else { return subscribe(entry, endsWithToken: endsWithToken) }
    entry.list = self
    entry.leave = { list, entry in list.remove(entry) }
    // A once-registration with a filter may reject what is replayed: it takes everything.
    let isOnce =
      entry.state.load(ordering: .relaxed) & (Liveness.onceBit | Liveness.filteredBit)
      == Liveness.onceBit
    let (replayed, released, purgeDue) = state.withLock {
      state -> (ContiguousArray<Payload>, Released, Bool) in
      var released = Released()
      // A re-registration replaces its observer's entry: what that one was handed and did not
      // start goes back first, so this one receives it.
      if let key = entry.key, let previous = state.byKey.entry(for: key, as: Entry.self) {
        state.retention.giveBack(previous._withUnsafeGuaranteedRef { $0.takeUnstarted() })
      }
      let replayed = state.retention.replay(once: isOnce)
      if state.retention.policy == .untilObserved && !replayed.isEmpty {
        entry.beginHandOver(replayed)
      }
      if isOnce && !replayed.isEmpty { return (replayed, released, false) }
      if !replayed.isEmpty { entry.beginReplay() }
      let purgeDue = insert(entry, into: &state, releasing: &released)
      return (replayed, released, purgeDue)
    }
    finish(released)
    if !replayed.isEmpty { entry.finishReplay(replayed) }
    if purgeDue { purgeAndCheckElsewhere() }
    return Subscription(registration: entry, cancelsOnDeinit: endsWithToken)
  }

  /// Delivers `payload` as ``post(_:)`` does, and retains it as the list's ``Retention`` says.
  ///
  /// - Returns: The number of registrations reached (called or queued); 0 for a payload held.
  ///
  /// With `.untilObserved`, a post that no live registration receives is held for the next
  /// registration: one made while the list is empty, and one whose every registration turns out
  /// dead (its observer gone) when it is delivered.
  @inlinable
  @discardableResult
  package func postRetaining(_ payload: Payload) -> Int {
    if let taps = taps.load(as: ObserverList.self) { taps.post(payload) }
    var first = true
    while true {
      let (hold, replaced) = state.withLock { state -> (Hold?, Payload?) in
        if state.retention.policy == .untilObserved && state.liveCount == 0 {
          state.retention.hold(payload)
          return (nil, nil)
        }
        let replaced = first ? state.retention.record(payload) : nil
        return (holdLocked(state), replaced)
      }
      _ = replaced
      guard let hold else { return 0 }
      var reached = 0
      var sawDead = false
      var needsPurge = false
      var context = PostContext()
      for index in 0..<hold.count {
        guard let entry = hold.entry(at: index) else { continue }
        entry._withUnsafeGuaranteedRef { entry in
          if entry.deliver(payload, &context) {
            reached += 1
          } else {
            // Cancelled since the post began: not reached, but already gone from the list.
            sawDead = true
            if !entry.isCancelled { needsPurge = true }
          }
        }
      }
      leave(hold)
      if needsPurge { purge() }
      guard reached == 0, sawDead, state.withLock({ $0.retention.policy }) == .untilObserved
      else { return reached - context.refused }
      first = false
    }
  }

  /// The newest payload the list retains (or holds), if any.
  package var latestRetained: Payload? {
    state.withLock { $0.retention.latest }
  }

  /// Drops every payload the list retains or holds; they are released after the lock.
  package func clearRetained() {
    let dropped = state.withLock { $0.retention.clear() }
    _ = dropped
  }
}
