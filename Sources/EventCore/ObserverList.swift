public import Synchronization

/// The ordered, thread-safe list of registrations that every Events module delivers through.
///
/// It implements the guarantees that hold in every module once:
/// - Registration order: entries are delivered in the order they were inserted; re-inserting a
///   keyed observer moves it to the end.
/// - Snapshot delivery: a post iterates the entries present when it started. The snapshot is
///   cached and published through an atomic pointer, so a post that follows no change takes no
///   lock and allocates nothing: registering and cancelling never wait behind a stream of posts
///   (see ``snapshot()``).
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

  /// An immutable list of entries, as published to posts.
  @usableFromInline final class Snapshot: Sendable {
    @usableFromInline let entries: ContiguousArray<Entry>

    @usableFromInline init(_ entries: ContiguousArray<Entry>) {
      self.entries = entries
    }
  }

  @usableFromInline struct State {
    /// Entries in registration order; `nil` marks a removed entry until the next compaction.
    @usableFromInline var slots: ContiguousArray<Entry?> = []
    @usableFromInline var liveCount = 0
    @usableFromInline var byKey: [ObjectIdentifier: Entry] = [:]
    /// Snapshots taken down from ``published`` while a post may have been about to retain their
    /// entries; released once no post is between its load and its retain (``readers`` is 0).
    @usableFromInline var retired: [Snapshot] = []
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
    @usableFromInline var snapshots: [Snapshot] = []
    @usableFromInline var entries: [Entry] = []
    /// One entry, without the allocation of an array: an unregistration or a replacement drops
    /// one.
    @usableFromInline var entry: Entry?

    @usableFromInline init(entries: [Entry] = [], entry: Entry? = nil) {
      self.entries = entries
      self.entry = entry
    }
  }

  @usableFromInline let state: Lock<State>
  /// Whether the list keeps payloads for later registrations; fixed at creation, so a post
  /// decides its path without the lock.
  @usableFromInline package let retains: Bool

  /// The current snapshot, retained once by the list (the bit pattern of an
  /// `Unmanaged<Snapshot>`'s pointer; a pointer is not `Sendable`), or 0 after a change, until
  /// the next post rebuilds it. Written only under the lock; read by posts without it.
  @usableFromInline let published = Atomic<UInt>(0)
  /// Posts between loading ``published`` and retaining its entries. A snapshot taken down while
  /// this is not 0 is kept in `State.retired` instead of released.
  @usableFromInline let readers = Atomic<Int>(0)
  /// Whether `State.retired` holds snapshots, read by each post that leaves ``readers`` at 0 so
  /// that the last post still reading releases them: a retired snapshot (its entries, and what
  /// their handlers captured) lives no longer than the posts that could read it.
  @usableFromInline let hasRetired = Atomic<Bool>(false)

  /// Creates an empty list.
  ///
  /// - Parameter retention: What the list keeps of its posts for registrations made later
  ///   (`.none` by default); see ``Retention``.
  @usableFromInline package init(retention: RetentionPolicy = .none) {
    state = Lock(State(retention: retention))
    retains = retention != .none
  }

  deinit {
    if let current = Self.snapshot(at: published.load(ordering: .acquiring)) {
      current.release()
    }
  }

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
    _ = released
    if purgeDue { purgeAndCheckElsewhere(snapshot()) }
  }

  /// The periodic purge of an insert: purges what the calling thread can tell is dead, and has
  /// each registration it may not check here (one isolated to an actor the caller is not on;
  /// see `ObserverEntry.isAlive`) checked on its actor, so that dead registrations stay within a
  /// constant factor of the live ones on a list that is never posted to (guarantee 1) without a
  /// weak load off their actor (guarantee 12).
  @inlinable
  func purgeAndCheckElsewhere(_ entries: ContiguousArray<Entry>) {
    purge(entries)
    for entry in entries where !entry.mayLoadReferencesHere && !entry.isCancelled {
      entry.checkOnItsActor()
    }
  }

  /// Inserts under the lock; what it replaces goes to `released`.
  ///
  /// - Returns: Whether a purge is due, to run once the lock is released.
  @inlinable
  func insert(_ entry: Entry, into state: inout State, releasing released: inout Released)
    -> Bool
  {
    if let key = entry.key, let previous = state.byKey[key] {
      Self.remove(previous, from: &state)
      released.entry = previous
    }
    entry.index = state.slots.count
    state.slots.append(entry)
    state.liveCount += 1
    if let key = entry.key { state.byKey[key] = entry }
    unpublish(&state, into: &released)
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
      guard Self.contains(entry, in: state) else {
        // A once-registration that took a replay is never inserted.
        state.retention.giveBack(entry.takeUnstarted())
        return nil
      }
      var released = Released()
      Self.remove(entry, from: &state)
      unpublish(&state, into: &released)
      return released
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
      var released = Released(entry: entry)
      Self.remove(entry, from: &state)
      unpublish(&state, into: &released)
      return released
    }
    _ = released
  }

  /// Ends every registration.
  @usableFromInline package func removeAll() {
    let released = state.withLock { state -> Released in
      let entries = state.slots.compactMap { $0 }
      for entry in entries { entry.liveness.cancel() }
      // The newest first, so the oldest registration's payloads end up at the front.
      for entry in entries.reversed() { state.retention.giveBack(entry.takeUnstarted()) }
      var released = Released(entries: entries)
      unpublish(&state, into: &released)
      state.slots = []
      state.liveCount = 0
      state.byKey = [:]
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
  /// Takes no lock and allocates nothing unless the list changed since the last call: it reads
  /// the published snapshot through an atomic pointer, so posts never hold the lock that
  /// registrations and cancellations take, and those never wait behind a stream of posts.
  ///
  /// Why reading it without the lock is safe: a post counts itself in ``readers`` before it
  /// loads ``published`` and until it has retained the snapshot's entries. A writer replaces
  /// the pointer first, then reads ``readers``, all four operations sequentially consistent: if
  /// it reads 0, every post that could still load the old pointer has retained what it needs
  /// (its decrement, a release, precedes the writer's read), and every later post loads the new
  /// pointer, so the old snapshot may be released; otherwise it is kept in `State.retired`.
  /// The writer sets ``hasRetired`` before reading ``readers``, and a post that brings
  /// ``readers`` to 0 reads ``hasRetired`` after: one of the two sees the other, so the retired
  /// snapshots are released by the writer or by that post, under the lock.
  @inlinable
  package func snapshot() -> ContiguousArray<Entry> {
    readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
    let current = Self.snapshot(at: published.load(ordering: .sequentiallyConsistent)).map {
      $0._withUnsafeGuaranteedRef { $0.entries }
    }
    if readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue == 0,
      hasRetired.load(ordering: .sequentiallyConsistent)
    {
      releaseRetired()
    }
    return current ?? rebuildSnapshot()
  }

  /// Releases the retired snapshots, if no post is reading any more, after the lock.
  @inlinable
  func releaseRetired() {
    let released = state.withLock { state -> Released in
      var released = Released()
      collectRetired(&state, into: &released)
      return released
    }
    _ = released
  }

  /// Builds and publishes the snapshot, under the lock, after a change took it down.
  @inlinable
  func rebuildSnapshot() -> ContiguousArray<Entry> {
    let (entries, released) = state.withLock { state -> (ContiguousArray<Entry>, Released) in
      var released = Released()
      collectRetired(&state, into: &released)
      return (publishedEntries(&state), released)
    }
    _ = released
    return entries
  }

  /// The published snapshot's entries, built and published first if a change took it down;
  /// under the lock.
  @inlinable
  func publishedEntries(_ state: inout State) -> ContiguousArray<Entry> {
    // Writers take the pointer down only under the lock, so this snapshot stays published,
    // with the list's retain, while the lock is held.
    if let current = Self.snapshot(at: published.load(ordering: .sequentiallyConsistent)) {
      return current.takeUnretainedValue().entries
    }
    var entries = ContiguousArray<Entry>()
    entries.reserveCapacity(state.liveCount)
    for case let entry? in state.slots { entries.append(entry) }
    let snapshot = Unmanaged.passRetained(Snapshot(entries))
    published.store(UInt(bitPattern: snapshot.toOpaque()), ordering: .sequentiallyConsistent)
    return entries
  }

  /// Takes the published snapshot down after a change, under the lock, retiring it, and
  /// releases the retired snapshots that no post can be about to read.
  @inlinable
  func unpublish(_ state: inout State, into released: inout Released) {
    // Only the lock's holder publishes, so this load is exact, and a list that no post has
    // read since its last change (registrations in a row) skips the exchange.
    if published.load(ordering: .relaxed) != 0,
      let old = Self.snapshot(at: published.exchange(0, ordering: .sequentiallyConsistent))
    {
      state.retired.append(old.takeRetainedValue())
      hasRetired.store(true, ordering: .sequentiallyConsistent)
    }
    collectRetired(&state, into: &released)
  }

  /// The snapshot whose pointer's bit pattern is `bits`, `nil` for 0.
  @inlinable
  static func snapshot(at bits: UInt) -> Unmanaged<Snapshot>? {
    UnsafeRawPointer(bitPattern: bits).map { Unmanaged<Snapshot>.fromOpaque($0) }
  }

  /// Moves the retired snapshots to `released` if no post is between loading ``published`` and
  /// retaining its entries: those that load it from now on get the current pointer.
  @inlinable
  func collectRetired(_ state: inout State, into released: inout Released) {
    guard !state.retired.isEmpty, readers.load(ordering: .sequentiallyConsistent) == 0 else {
      return
    }
    swap(&state.retired, &released.snapshots)
    hasRetired.store(false, ordering: .sequentiallyConsistent)
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
      var released = Released()
      for entry in dead where Self.contains(entry, in: state) {
        Self.remove(entry, from: &state)
        released.entries.append(entry)
      }
      if !released.entries.isEmpty { unpublish(&state, into: &released) }
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
  /// outnumber live ones. The caller takes the snapshot down (`unpublish`).
  @inlinable
  static func remove(_ entry: Entry, from state: inout State) {
    entry.liveness.cancel()
    if entry.state.load(ordering: .relaxed) & Liveness.handOverBit != 0 {
      state.retention.giveBack(entry.takeUnstarted())
    }
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
    var context = PostContext()
    forEachEntry { $0.deliver(payload, &context) }
  }

  /// Registers `entry`, first delivering to it what the list retains, through its own delivery.
  ///
  /// No gap and no duplicate: the retained payloads are read, and the entry published, in one
  /// critical section, and ``postRetaining(_:)`` records a payload and reads the registrations
  /// in one critical section too (it takes the lock, unlike a plain post). So every post is either retained before the registration (and
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
      var released = Released()
      // A re-registration replaces its observer's entry: what that one was handed and did not
      // start goes back first, so this one receives it.
      if let key = entry.key, let previous = state.byKey[key] {
        state.retention.giveBack(previous.takeUnstarted())
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
    _ = released
    if !replayed.isEmpty { entry.finishReplay(replayed) }
    if purgeDue { purgeAndCheckElsewhere(snapshot()) }
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
      let (entries, replaced, released) = state.withLock {
        state -> (ContiguousArray<Entry>?, Payload?, Released) in
        var released = Released()
        collectRetired(&state, into: &released)
        if state.retention.policy == .untilObserved && state.liveCount == 0 {
          state.retention.hold(payload)
          return (nil, nil, released)
        }
        let replaced = first ? state.retention.record(payload) : nil
        return (publishedEntries(&state), replaced, released)
      }
      _ = (replaced, released)
      guard let entries else { return }
      var reached = false
      var sawDead = false
      var context = PostContext()
      for entry in entries {
        if entry.deliver(payload, &context) { reached = true } else { sawDead = true }
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
