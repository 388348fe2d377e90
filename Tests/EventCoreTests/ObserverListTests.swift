import EventTestSupport
import Synchronization
import Testing

@testable import EventCore

/// An observer class for keyed, weakly held registrations.
private final class Listener: Sendable {
  let name: String
  let log: Recorder<String>
  init(_ name: String, log: Recorder<String>) {
    self.name = name
    self.log = log
  }
  func receive(_ value: Int) { log.record("\(name):\(value)") }
}

/// Subscribes a token-held closure.
private func subscribe(
  _ list: ObserverList<Int>, _ handler: @escaping (Int) -> Void
) -> Subscription {
  list.subscribe(ObserverEntry(delivery: .synchronous, handler: handler), endsWithToken: true)
}

/// Registers `listener` keyed and weakly, for as long as it lives.
@discardableResult
private func register(_ list: ObserverList<Int>, _ listener: Listener) -> Subscription {
  let entry = ObserverEntry<Int>(observer: listener, keyed: true, delivery: .synchronous) {
    listener, value in listener.receive(value)
  }
  return list.subscribe(entry, endsWithToken: false)
}

@Suite("ObserverList")
struct ObserverListTests {
  @Test("a post with no observers does nothing")
  func emptyPost() {
    let list = ObserverList<Int>()
    list.post(1)
    #expect(list.count == 0)
  }

  @Test("observers are called in registration order, once each")
  func registrationOrder() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let tokens = (0..<5).map { index in subscribe(list) { log.record("\(index):\($0)") } }
    list.post(7)
    #expect(log.values == ["0:7", "1:7", "2:7", "3:7", "4:7"])
    withExtendedLifetime(tokens) {}
  }

  @Test("re-registering an observer moves it to the end and cancels the old registration")
  func reRegistrationMovesToEnd() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    let first = register(list, a)
    register(list, b)
    register(list, a)
    list.post(1)
    #expect(log.values == ["B:1", "A:1"])
    #expect(first.isCancelled, "re-registration is a cancel of the old token")
    #expect(list.count == 2)
  }

  @Test("a dropped token of a keyed registration does not end it")
  func keyedRegistrationOutlivesToken() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    _ = register(list, a)
    list.post(1)
    #expect(log.values == ["A:1"])
  }

  @Test("a deallocated observer is not called, not retained, and purged")
  func weakPurge() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    var a: Listener? = Listener("A", log: log)
    let weakA = Weak(a)
    register(list, a!)
    #expect(list.count == 1)
    a = nil
    #expect(weakA.object == nil)
    list.post(1)
    #expect(log.values.isEmpty)
    #expect(list.count == 0)
  }

  @Test("observers that registered and died do not pile up on a list that is never posted to")
  func insertPurgesDeadEntries() {
    let list = ObserverList<Int>()
    let freed = Counter()
    let registrations = 10_000
    for _ in 0..<registrations {
      let captured = Tracked("captured") { freed.increment() }
      let observer = Tracked()
      _ = list.subscribe(
        ObserverEntry(observer: observer, keyed: true, delivery: .synchronous) { _, _ in
          withExtendedLifetime(captured) {}
        }, endsWithToken: false)
    }
    // A purge runs once the list has grown by half its live count (at least 16 inserts).
    #expect(registrations - freed.count <= 16, "dead entries kept what their handlers captured")
  }

  @Test("dead observers do not pile up while older registrations are cancelled")
  func insertPurgesDeadEntriesAmidCancels() {
    // Each cancel clears a slot at the front, which the list does not give back: the dead
    // registrations still grow it, so inserts still purge them.
    let list = ObserverList<Int>()
    let freed = Counter()
    let registrations = 2000
    var live = (0..<registrations).map { _ in subscribe(list) { _ in } }
    for _ in 0..<registrations {
      let captured = Tracked("captured") { freed.increment() }
      let observer = Tracked()
      _ = list.subscribe(
        ObserverEntry(observer: observer, keyed: true, delivery: .synchronous) { _, _ in
          withExtendedLifetime(captured) {}
        }, endsWithToken: false)
      live.removeFirst().cancel()
    }
    #expect(registrations - freed.count <= registrations / 2)
  }

  @Test("a subscribe and cancel at the end of a list runs no purge")
  func tailChurnRunsNoPurge() {
    let list = ObserverList<Int>()
    let kept = (0..<100).map { _ in subscribe(list) { _ in } }
    let countedBefore = list.state.withLock { $0.insertsSincePurge }
    for _ in 0..<1000 { subscribe(list) { _ in }.cancel() }
    #expect(list.state.withLock { $0.insertsSincePurge } == countedBefore)
    withExtendedLifetime(kept) {}
  }

  @Test("the live registrations survive the purges that inserts run")
  func insertPurgeKeepsLiveEntries() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let kept = (0..<40).map { Listener("\($0)", log: log) }
    for (index, listener) in kept.enumerated() {
      register(list, listener)
      for _ in 0..<index { register(list, Listener("dead", log: log)) }
    }
    list.post(1)
    #expect(log.values == kept.map { "\($0.name):1" })
  }

  @Test("cancelling a later observer from an earlier handler skips it in the same post")
  func cancelMidPost() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    var second: Subscription?
    let first = subscribe(list) { _ in
      log.record("first")
      second?.cancel()
    }
    second = subscribe(list) { _ in log.record("second") }
    list.post(1)
    list.post(2)
    #expect(log.values == ["first", "first"])
    withExtendedLifetime(first) {}
  }

  @Test("an observer released by an earlier handler is deallocated at once and skipped")
  func releasedMidPost() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    nonisolated(unsafe) var victim: Listener? = Listener("victim", log: log)
    let weakVictim = Weak(victim)
    let deallocatedDuringPost = Counter()
    let first = subscribe(list) { _ in
      victim = nil
      if weakVictim.object == nil { deallocatedDuringPost.increment() }
    }
    register(list, victim!)
    list.post(1)
    #expect(deallocatedDuringPost.count == 1)
    #expect(log.values.isEmpty)
    withExtendedLifetime(first) {}
  }

  @Test("observers added during a post get the next post, not this one")
  func subscribeDuringPost() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    var added: [Subscription] = []
    let first = subscribe(list) { value in
      log.record("first:\(value)")
      if value == 1 { added.append(subscribe(list) { log.record("added:\($0)") }) }
    }
    list.post(1)
    list.post(2)
    #expect(log.values == ["first:1", "first:2", "added:2"])
    withExtendedLifetime((first, added)) {}
  }

  @Test("an observer added after the last one left during a post waits for the next post")
  func subscribeAfterTailCancelDuringPost() {
    // The post holds the storage, so the last slot, cleared or not, is part of its snapshot:
    // the new entry must not take it over (a removal lowers the count only when no post holds
    // the storage).
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    var last: Subscription?
    var added: [Subscription] = []
    let first = subscribe(list) { value in
      log.record("first:\(value)")
      if value == 1 {
        last?.cancel()
        added.append(subscribe(list) { log.record("added:\($0)") })
      }
    }
    last = subscribe(list) { log.record("last:\($0)") }
    list.post(1)
    list.post(2)
    #expect(log.values == ["first:1", "first:2", "added:2"])
    withExtendedLifetime((first, added)) {}
  }

  @Test("subscribing and cancelling at the end of a list reuses its last slot")
  func tailChurnReusesTheLastSlot() {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    let kept = (0..<20).map { index in subscribe(list) { _ in log.record(index) } }
    let storage = list.state.withLock { $0.storage }
    for _ in 0..<100 { subscribe(list) { _ in log.record(-1) }.cancel() }
    // The count fell back over the cleared slot each time: no growth, no rebuild.
    #expect(list.state.withLock { $0.storage } === storage)
    #expect(storage.count.load(ordering: .relaxed) == 20)
    list.post(1)
    #expect(log.values == Array(0..<20))
    withExtendedLifetime(kept) {}
  }

  @Test("a handler may post to its own list and cancel itself")
  func reentrantPostAndSelfCancel() {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    var token: Subscription?
    token = subscribe(list) { value in
      log.record(value)
      if value < 3 { list.post(value + 1) }
      if value == 3 { token?.cancel() }
    }
    list.post(1)
    list.post(10)
    #expect(log.values == [1, 2, 3])
    #expect(list.count == 0)
  }

  @Test("a released observer whose deinit posts to the same list does not deadlock")
  func deinitThatPosts() {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    let witness = subscribe(list) { log.record($0) }
    let finished = onOtherThread {
      var token: Subscription? = subscribe(list) { _ in }
      // The closure's captured object is released with the entry, after the list's lock.
      let poster = Tracked("poster") { list.post(99) }
      token = subscribe(list) { _ in _ = poster }
      token?.cancel()
      token = nil
    }
    #expect(finished, "deadlock: a deinit ran under the list's lock")
    #expect(log.values == [99])
    withExtendedLifetime(witness) {}
  }

  @Test("removing observers from a large list keeps order and counts")
  func removalKeepsOrder() {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    var tokens = (0..<100).map { index in subscribe(list) { _ in log.record(index) } }
    for index in stride(from: 0, to: 100, by: 3) { tokens[index].cancel() }
    list.post(0)
    let expected = (0..<100).filter { $0 % 3 != 0 }
    #expect(log.values == expected)
    #expect(list.count == expected.count)
    tokens.removeAll()
    #expect(list.count == 0)
  }

  @Test("removeObserver ends a keyed registration; removeAll ends every one")
  func removeObserverAndAll() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let a = Listener("A", log: log)
    let b = Listener("B", log: log)
    register(list, a)
    register(list, b)
    list.removeObserver(a)
    list.post(1)
    #expect(log.values == ["B:1"])
    list.removeAll()
    list.post(2)
    #expect(log.values == ["B:1"])
    #expect(list.count == 0)
  }

  @Test("what a cancelled handler captured is released when cancel returns, with no post running")
  func cancelReleasesCapturesAtOnce() {
    let list = ObserverList<Int>()
    let others = (0..<40).map { _ in subscribe(list) { _ in } }
    list.post(0)
    var captured: Tracked? = Tracked("captured")
    let watch = Weak(captured)
    let token = subscribe(list) { [captured] _ in withExtendedLifetime(captured) {} }
    captured = nil
    list.post(1)
    #expect(watch.object != nil)
    token.cancel()
    #expect(watch.object == nil)
    withExtendedLifetime((others, token)) {}
  }

  @Test("what a handler that cancels itself captured is released when the post returns")
  func selfCancelReleasesAfterThePost() {
    let list = ObserverList<Int>()
    let before = subscribe(list) { _ in }
    let tokenBox = Recorder<Subscription>()
    var captured: Tracked? = Tracked("captured")
    let watch = Weak(captured)
    let token = subscribe(list) { [captured] _ in
      withExtendedLifetime(captured) {}
      tokenBox.values.first?.cancel()
    }
    tokenBox.record(token)
    captured = nil
    let after = subscribe(list) { _ in }
    list.post(1)
    // The post held the storage when the handler cancelled: the slot waited for the post to
    // leave, and the post that left last released it.
    #expect(watch.object == nil)
    #expect(token.isCancelled)
    withExtendedLifetime((before, after)) {}
  }

  @Test("registrations and removals far beyond the first storage keep order and release what left")
  func growthAndCompactionKeepOrder() {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    var tokens: [Int: Subscription] = [:]
    for value in 0..<200 { tokens[value] = subscribe(list) { _ in log.record(value) } }
    for value in stride(from: 0, to: 200, by: 3) { tokens[value]?.cancel() }
    for value in 200..<260 { tokens[value] = subscribe(list) { _ in log.record(value) } }
    for value in stride(from: 1, to: 260, by: 3) { tokens[value]?.cancel() }
    list.post(0)
    let expected = (0..<260).filter { $0 % 3 == 2 || ($0 >= 200 && $0 % 3 == 0) }
    #expect(log.values == expected)
    #expect(list.count == expected.count)
    withExtendedLifetime(tokens) {}
  }

  @Test("what a cancelled handler captured is released once the posts reading it have ended")
  func retiredSnapshotsAreReleased() {
    let list = ObserverList<Int>()
    let created = Counter()
    let released = Counter()
    let base = subscribe(list) { _ in }
    let finished = runThreads(
      [
        { list.post(1) },
        { list.post(2) },
        {
          created.increment()
          let captured = Tracked(onDeinit: { released.increment() })
          subscribe(list) { _ in withExtendedLifetime(captured) {} }.cancel()
        },
      ], seconds: 0.3)
    #expect(finished)
    // Snapshots taken down while posts were reading them are released by the last of those
    // posts, or by the next change: none outlives the posts.
    #expect(created.count > 0)
    #expect(released.count == created.count)
    withExtendedLifetime(base) {}
  }
}
