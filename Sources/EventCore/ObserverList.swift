public import Synchronization

/// The ordered, thread-safe list of registrations that every Events module delivers through.
///
/// It implements the guarantees that hold in every module once:
/// - Registration order: entries are delivered in the order they were inserted; re-inserting a
///   keyed observer moves it to the end.
/// - Snapshot delivery: a post iterates the entries present when it started. The snapshot is
///   cached, so a post that follows no change allocates nothing.
/// - Cancel means cancelled: each entry's liveness is checked immediately before its handler
///   runs, so an entry cancelled mid-post, or with a delivery queued, is skipped.
/// - Weak purge: entries whose observer or owner is gone are dropped by the next post or count,
///   and by an insert once the list has grown by half since its last purge, so memory stays
///   within a constant factor of the live registrations even on a list that is never posted to.
/// - No user code under the lock: handlers run on a snapshot after the lock is released, and
///   everything a mutation releases (entries, old snapshots, hence handler closures and the
///   objects they capture) is released after the lock too.
///
/// - Never waiting: removing an entry marks it cancelled and returns; nothing here waits for a
///   handler running on another thread.
///
/// - Complexity: insert and remove are amortised O(1); the first post after a change is O(*n*).
@usableFromInline package final class ObserverList<Payload>: Sendable {
  @usableFromInline package typealias Entry = ObserverEntry<Payload>

  @usableFromInline struct State {
    /// Entries in registration order; `nil` marks a removed entry until the next compaction.
    @usableFromInline var slots: ContiguousArray<Entry?> = []
    @usableFromInline var liveCount = 0
    @usableFromInline var byKey: [ObjectIdentifier: Entry] = [:]
    /// The live entries, rebuilt on the first post after a change.
    @usableFromInline var snapshot: ContiguousArray<Entry>? = []
    /// Inserts since the last purge; an insert that brings it past half the live count purges.
    @usableFromInline var insertsSincePurge = 0
    /// What the list keeps for later registrations (an `Event`'s replay).
    @usableFromInline var retention: Retention<Payload>

    @usableFromInline init(retention: RetentionPolicy) {
      self.retention = Retention(retention)
    }
  }

  /// What a mutation drops, handed out of the lock so that the entries (their handlers, and
  /// what those captured) are released after it.
  @usableFromInline struct Released: Sendable {
    @usableFromInline var snapshot: ContiguousArray<Entry>?
    @usableFromInline var entries: [Entry] = []

    @usableFromInline init(snapshot: ContiguousArray<Entry>? = nil, entries: [Entry] = []) {
      self.snapshot = snapshot
      self.entries = entries
    }
  }

  @usableFromInline let state: Lock<State>
  /// Whether the list keeps payloads for later registrations; fixed at creation, so a post
  /// decides its path without the lock.
  @usableFromInline package let retains: Bool

  /// Creates an empty list.
  ///
  /// - Parameter retention: What the list keeps of its posts for registrations made later
  ///   (`.none` by default); see ``Retention``.
  @usableFromInline package init(retention: RetentionPolicy = .none) {
    state = Lock(State(retention: retention))
    retains = retention != .none
  }

  /// Registers `entry`, replacing the keyed entry of the same observer, if any.
  ///
  /// Purges dead entries once the list has grown by half since the last purge (at least 16
  /// inserts), which keeps insert amortised O(1) and dead entries within a constant factor of
  /// the live ones without waiting for a post.
  @inlinable
  package func insert(_ entry: Entry) {
    let (released, purgeDue) = state.withLock { state -> (Released, Bool) in
      var released = Released(snapshot: state.snapshot)
      let purgeDue = Self.insert(entry, into: &state, releasing: &released)
      return (released, purgeDue)
    }
    _ = released
    if purgeDue { purge(snapshot()) }
  }

  /// Inserts under the lock; what it replaces goes to `released`.
  ///
  /// - Returns: Whether a purge is due, to run once the lock is released.
  @inlinable
  static func insert(_ entry: Entry, into state: inout State, releasing released: inout Released)
    -> Bool
  {
    if let key = entry.key, let previous = state.byKey[key] {
      Self.remove(previous, from: &state)
      released.entries.append(previous)
    }
    entry.index = state.slots.count
    state.slots.append(entry)
    state.liveCount += 1
    if let key = entry.key { state.byKey[key] = entry }
    state.snapshot = nil
    state.insertsSincePurge += 1
    let purgeDue = state.insertsSincePurge >= max(16, state.liveCount / 2)
    if purgeDue { state.insertsSincePurge = 0 }
    return purgeDue
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

  /// Ends `entry`'s registration. Does nothing if it is no longer registered.
  @inlinable
  package func remove(_ entry: Entry) {
    let released = state.withLock { state -> Released? in
      guard Self.contains(entry, in: state) else { return nil }
      defer { state.snapshot = nil }
      Self.remove(entry, from: &state)
      return Released(snapshot: state.snapshot)
    }
    _ = released
  }

  /// Ends the keyed registration of `observer`, if it has one.
  @inlinable
  package func removeObserver(_ observer: AnyObject) {
    let released = state.withLock { state -> Released in
      // The caller holds `observer`, so an entry under its identity is either its own or one
      // whose observer died and whose address was reused: both are to go.
      guard let entry = state.byKey[ObjectIdentifier(observer)] else { return Released() }
      defer { state.snapshot = nil }
      Self.remove(entry, from: &state)
      return Released(snapshot: state.snapshot, entries: [entry])
    }
    _ = released
  }

  /// Ends every registration.
  @usableFromInline package func removeAll() {
    let released = state.withLock { state -> Released in
      let entries = state.slots.compactMap { $0 }
      for entry in entries { entry.liveness.cancel() }
      let released = Released(snapshot: state.snapshot, entries: entries)
      state.slots = []
      state.liveCount = 0
      state.byKey = [:]
      state.snapshot = []
      state.insertsSincePurge = 0
      return released
    }
    _ = released
  }

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

  /// The entries registered now, in registration order.
  ///
  /// Costs no allocation unless the list changed since the last call.
  @inlinable
  package func snapshot() -> ContiguousArray<Entry> {
    state.withLock { Self.snapshot(of: &$0) }
  }

  /// The cached snapshot, built first if the list changed; under the lock.
  @inlinable
  static func snapshot(of state: inout State) -> ContiguousArray<Entry> {
    if let snapshot = state.snapshot { return snapshot }
    var snapshot = ContiguousArray<Entry>()
    snapshot.reserveCapacity(state.liveCount)
    for case let entry? in state.slots { snapshot.append(entry) }
    state.snapshot = snapshot
    return snapshot
  }

  /// Calls every live handler on the calling thread, ignoring each entry's `Delivery`.
  ///
  /// For payloads that cannot cross threads.
  @usableFromInline package func postSynchronously(_ payload: Payload) {
    forEachEntry { $0.invoke(payload) }
  }

  /// Runs `body` for each entry of the current snapshot, in registration order, then purges
  /// the entries for which it returned `false` (dead).
  ///
  /// The building block of every post; `body` should call the entry's `invoke` or `deliver`.
  @inlinable
  package func forEachEntry(_ body: (Entry) -> Bool) {
    let entries = snapshot()
    var sawDead = false
    for entry in entries where !body(entry) { sawDead = true }
    if sawDead { purge(entries) }
  }

  /// Drops the entries of `entries` that are dead. The liveness checks, which load weak
  /// references, run before the lock is taken.
  @inlinable
  package func purge(_ entries: ContiguousArray<Entry>) {
    let dead = entries.filter { !$0.isAlive }
    guard !dead.isEmpty else { return }
    let released = state.withLock { state -> Released in
      var released = Released(snapshot: state.snapshot)
      for entry in dead where Self.contains(entry, in: state) {
        Self.remove(entry, from: &state)
        released.entries.append(entry)
      }
      if !released.entries.isEmpty { state.snapshot = nil }
      return released
    }
    _ = released
  }

  @inlinable
  static func contains(_ entry: Entry, in state: State) -> Bool {
    entry.index >= 0 && entry.index < state.slots.count
      && state.slots[entry.index] === entry
  }

  /// Removes a registered entry, cancels it, and compacts the slots when removed entries
  /// outnumber live ones. The caller invalidates the snapshot.
  @inlinable
  static func remove(_ entry: Entry, from state: inout State) {
    entry.liveness.cancel()
    state.slots[entry.index] = nil
    state.liveCount -= 1
    if let key = entry.key, state.byKey[key] === entry { state.byKey[key] = nil }
    entry.index = -1
    if state.slots.count >= 16 && state.liveCount * 2 < state.slots.count {
      var compacted = ContiguousArray<Entry?>()
      compacted.reserveCapacity(state.liveCount * 2)
      for case let live? in state.slots {
        live.index = compacted.count
        compacted.append(live)
      }
      state.slots = compacted
    }
  }
}

extension ObserverList where Payload: Sendable {
  /// Delivers `payload` to every live registration, each as its `Delivery` says.
  ///
  /// Handlers added during the post get the next one; handlers cancelled during it, and
  /// observers released by an earlier handler, are skipped.
  @inlinable
  package func post(_ payload: Payload) {
    forEachEntry { $0.deliver(payload) }
  }

  /// Registers `entry`, first delivering to it what the list retains, through its own delivery.
  ///
  /// No gap and no duplicate: the retained payloads are read, and the entry published, in one
  /// critical section, and ``postRetaining(_:)`` records a payload and reads the registrations
  /// in one critical section too. So every post is either retained before the registration (and
  /// replayed) or made after it (and delivered live), never both, never neither. Live
  /// deliveries that arrive while the replay runs wait behind it (`ObserverEntry.beginReplay`),
  /// so the entry receives everything in post order. With synchronous delivery the replay has
  /// run when this returns.
  ///
  /// A once-registration that has something to replay fires on its first replayed payload and
  /// is never added to the list.
  @inlinable
  package func subscribeReplaying(_ entry: Entry, endsWithToken: Bool) -> Subscription {
    guard retains else { return subscribe(entry, endsWithToken: endsWithToken) }
    entry.list = self
    entry.leave = { list, entry in list.remove(entry) }
    let isOnce = entry.state.load(ordering: .relaxed) & Liveness.onceBit != 0
    let (replayed, released, purgeDue) = state.withLock {
      state -> (ContiguousArray<Payload>, Released, Bool) in
      var released = Released(snapshot: state.snapshot)
      let replayed = state.retention.replay(once: isOnce)
      if isOnce && !replayed.isEmpty { return (replayed, released, false) }
      if !replayed.isEmpty { entry.beginReplay() }
      let purgeDue = Self.insert(entry, into: &state, releasing: &released)
      return (replayed, released, purgeDue)
    }
    _ = released
    if !replayed.isEmpty { entry.finishReplay(replayed) }
    if purgeDue { purge(snapshot()) }
    return Subscription(registration: entry, cancelsOnDeinit: endsWithToken)
  }

  /// Delivers `payload` as ``post(_:)`` does, and retains it as the list's ``Retention`` says.
  ///
  /// With `.untilObserved`, a post that no live registration receives is held for the next
  /// registration: one made while the list is empty, and one whose every registration turns out
  /// dead (its observer gone) when it is delivered.
  @inlinable
  package func postRetaining(_ payload: Payload) {
    var first = true
    while true {
      let (entries, replaced) = state.withLock {
        state -> (ContiguousArray<Entry>?, Payload?) in
        if state.retention.policy == .untilObserved && state.liveCount == 0 {
          state.retention.hold(payload)
          return (nil, nil)
        }
        let replaced = first ? state.retention.record(payload) : nil
        return (Self.snapshot(of: &state), replaced)
      }
      _ = replaced
      guard let entries else { return }
      var reached = false
      var sawDead = false
      for entry in entries {
        if entry.deliver(payload) { reached = true } else { sawDead = true }
      }
      if sawDead { purge(entries) }
      guard !reached, sawDead, state.withLock({ $0.retention.policy }) == .untilObserved
      else { return }
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
