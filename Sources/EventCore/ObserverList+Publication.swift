public import Synchronization

// The publication protocol: how posts read a storage without the lock while writers change it.
//
// - A post counts itself in `readers` while it loads `published` and joins the storage's
//   `holders`, and leaves `holders` when it is done. A writer that wants a storage to itself (to
//   clear, compact or shift slots in place) takes the pointer down first, then reads `readers`
//   and `holders`, all sequentially consistent: if both are 0, no post can read the storage
//   until the writer publishes it again (a post that finds no pointer takes the lock, which the
//   writer holds). A storage replaced while posts hold it is kept in `State.retired` until they
//   leave.
// - Whatever waits (pending slots, retired storages) sets `needsCleanup` before the writer
//   reads `holders`, and each post that brings `holders` to 0 reads it after: one of the two
//   sees the other, so the last post out cleans up, under the lock, and memory stays
//   proportional to the live entries however long posts overlap.
// - A writer takes the pointer down only when it has read `holders` as 0 first: while a post
//   holds the storage (one parked in a slow handler), the pending slots wait for it, and posts
//   on other threads keep the lock-free path. Every post in `readers` goes on to join some
//   storage's `holders` and leave it: one that joins the current storage cleans up the pending
//   slots when it leaves. A retired storage kept because `readers` was not 0 (a post may be
//   about to join it) waits for `readers` to fall to 0: `retiredAwaitReaders` says so, with the
//   same handshake, and `tidy` raises it before its pending slots read `readers`, so the post
//   that is about to join a retired storage cleans up those slots too.
//
// Every access in the handshake is sequentially consistent: each argument above is of the
// form "A writes x then reads y, B writes y then reads x, so one of them sees the other",
// which needs a single total order of those accesses. `PublicationProtocolModelTests` runs
// these steps for two posts and a writer in every interleaving.
extension ObserverList {
  /// Joins the current storage's holders, without the lock unless a writer has it.
  @inlinable
  func hold() -> Hold {
    readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
    let bits = published.load(ordering: .sequentiallyConsistent)
    guard bits != 0 else {
      leaveReaders()
      return state.withLock { holdLocked($0) }
    }
    let storage = Unmanaged<ObserverStorage>.fromOpaque(
      UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    let count = storage._withUnsafeGuaranteedRef { storage in
      storage.holders.wrappingAdd(1, ordering: .sequentiallyConsistent)
      return storage.count.load(ordering: .acquiring)
    }
    leaveReaders()
    return Hold(storage: storage, count: count)
  }

  /// Joins the current storage's holders, under the lock.
  @inlinable
  func holdLocked(_ state: State) -> Hold {
    state.storage.holders.wrappingAdd(1, ordering: .sequentiallyConsistent)
    return Hold(
      storage: .passUnretained(state.storage),
      count: state.storage.count.load(ordering: .relaxed))
  }

  @inlinable
  func leaveReaders() {
    if readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue == 0,
      retiredAwaitReaders.load(ordering: .sequentiallyConsistent)
    {
      cleanUp()
    }
  }

  /// Leaves a storage joined by ``hold()``; the last post out cleans up what waited for it.
  @inlinable
  func leave(_ hold: Hold) {
    // The storage is not touched after the decrement: a writer may release it at once.
    let remaining = hold.storage._withUnsafeGuaranteedRef {
      $0.holders.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
    }
    if remaining == 0, needsCleanup.load(ordering: .sequentiallyConsistent) { cleanUp() }
  }

  /// Clears pending slots and releases retired storages that no post holds any more.
  // Inlinable so that the post that runs it (the last one out after a change, such as the post
  // whose `next` left during it) runs it at the payload's type: unspecialized, it looks up the
  // generic metadata of the state, of `Released` and of the entries. Never inlined: it is the
  // post's slow path.
  @inlinable @inline(never) func cleanUp() {
    let released = state.withLock { state -> Released in
      var released = Released()
      tidy(&state, into: &released)
      return released
    }
    finish(released)
  }

  /// Takes ``published`` down, then tells whether no post holds the current storage or can be
  /// about to; under the lock. The caller publishes it again (``publish(_:)``).
  @inlinable
  func takeExclusive(_ state: inout State) -> Bool {
    state.takeDowns &+= 1
    published.store(0, ordering: .sequentiallyConsistent)
    return readers.load(ordering: .sequentiallyConsistent) == 0
      && state.storage.holders.load(ordering: .sequentiallyConsistent) == 0
  }

  @inlinable
  func publish(_ state: State) {
    published.store(ObserverStorage.bits(of: state.storage), ordering: .sequentiallyConsistent)
  }

  /// Clears slot `index` of the current storage if no post holds it or can be about to, as
  /// `tidy` clears pending slots; under the lock.
  ///
  /// A removal with nothing pending tries this first: it raises no `needsCleanup`, since it
  /// leaves nothing to clean up. When it fails (leaving `published` down if a post may be about
  /// to join), the removal leaves the slot pending and raises the flag before its `tidy` reads
  /// `holders` again and publishes the storage, so the handshake is the one above.
  ///
  /// - Returns: Whether the slot was cleared, its entry going to `released`.
  @inlinable
  func clearNow(_ index: Int, in state: inout State, _ released: inout Released) -> Bool {
    guard state.storage.holders.load(ordering: .sequentiallyConsistent) == 0,
      takeExclusive(&state)
    else { return false }
    let storage = state.storage
    let slots = storage.slots
    if slots[index] != 0 {
      released.take(slots[index])
      slots[index] = 0
    }
    // The storage is ours alone, so the count may fall back over the cleared slots at its end:
    // the next insert then reuses them (a subscribe and cancel leave the storage as they found
    // it) instead of filling the storage toward a rebuild. A post that holds the storage would
    // read a reused slot as part of its snapshot; none can until `publish` below.
    let before = storage.count.load(ordering: .relaxed)
    var count = before
    while count > 0 && slots[count - 1] == 0 { count -= 1 }
    storage.count.store(count, ordering: .relaxed)
    // The inserts whose slots come back no longer count toward the next purge: the list has
    // not grown by them, so the entries that may be dead are still at most the slots at the
    // last purge plus `insertsSincePurge` (floored at 0, which only brings a purge sooner).
    state.insertsSincePurge = max(0, state.insertsSincePurge - (before - count))
    publish(state)
    return true
  }

  /// Clears pending slots if the current storage is free, releases the retired storages no post
  /// holds, and lowers ``needsCleanup`` once nothing waits; under the lock.
  @inlinable
  func tidy(_ state: inout State, into released: inout Released) {
    // Retired storages first. A post between loading the pointer and joining a storage may be
    // about to join a retired one: wait for `readers` to be 0 too. The flag is raised before
    // `readers` is read, and the post that brings `readers` to 0 reads it after. Raised before
    // the pending slots' `takeExclusive` reads `readers`, it also makes such a post clean up
    // the slots that read keeps waiting: otherwise they would wait for that post to leave the
    // retired storage, which may be parked in a slow handler (`PublicationProtocolModelTests`,
    // scenario growThenRemove).
    if !state.retired.isEmpty {
      retiredAwaitReaders.store(true, ordering: .sequentiallyConsistent)
    }
    if !state.retired.isEmpty, readers.load(ordering: .sequentiallyConsistent) == 0 {
      // Any post that joins a storage from now on loads the current pointer, never a retired
      // one; a retired storage still held is released by its last holder's `leave`.
      retiredAwaitReaders.store(false, ordering: .sequentiallyConsistent)
      var kept: [ObserverStorage] = []
      for storage in state.retired {
        if storage.holders.load(ordering: .sequentiallyConsistent) == 0 {
          released.drop(storage)
        } else {
          kept.append(storage)
        }
      }
      state.retired = kept
    }
    // `holders` first: a storage a post holds is not taken down (see "Why a change is O(1)").
    if !state.pending.isEmpty,
      state.storage.holders.load(ordering: .sequentiallyConsistent) == 0,
      takeExclusive(&state)
    {
      let slots = state.storage.slots
      for index in state.pending where slots[index] != 0 {
        released.take(slots[index])
        slots[index] = 0
      }
      state.pending.removeAll(keepingCapacity: state.pending.capacity <= 64)
      publish(state)
    } else if !state.pending.isEmpty {
      publish(state)
    }
    if state.pending.isEmpty && state.retired.isEmpty {
      needsCleanup.store(false, ordering: .sequentiallyConsistent)
    }
  }
}
