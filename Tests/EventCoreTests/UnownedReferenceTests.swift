import Dispatch
import EventTestSupport
import Synchronization
import Testing

@testable import EventCore

/// A token-held registration's entry outlives neither its registration nor its list's hold on
/// it: the token refers to it through an `UnownedReference`, which keeps only its memory.
@Suite("UnownedReference")
struct UnownedReferenceTests {
  @Test("the reference hands out the object while it lives and nothing once it is deinitialized")
  func loadsOnlyALiveObject() {
    let deinits = Counter()
    var object: Tracked? = Tracked { deinits.increment() }
    let watch = Weak(object)
    let reference = UnownedReference(object)
    #expect(reference.object === object)
    object = nil
    // The reference kept the memory, not the object: it was deinitialized when its last strong
    // reference went, and loading it again neither revives it nor reads freed memory.
    #expect(deinits.count == 1)
    #expect(watch.object == nil)
    #expect(reference.object == nil)
    #expect(reference.object == nil)
    #expect(UnownedReference<Tracked>(nil).object == nil)
  }

  @Test("racing loads, direct or as an entry's observer, never hand out a deinitialized object")
  func loadsRacingTheLastRelease() {
    for _ in 0..<500 {
      let deinits = Counter()
      let revived = Counter()
      let holder = Mutex<Tracked?>(Tracked { deinits.increment() })
      let reference = UnownedReference(holder.withLock { $0 })
      let entry = ObserverReferenceTests.entry(observing: holder.withLock { $0! })
      DispatchQueue.concurrentPerform(iterations: 3) { index in
        if index == 0 {
          let last = holder.withLock { $0.take() }
          _ = consume last
          return
        }
        for _ in 0..<20 {
          // Held while checked: an object deinitialized before this load must not come back.
          guard let loaded = reference.object, let observer = entry.observer else { break }
          if deinits.count > 0 { revived.increment() }
          withExtendedLifetime((loaded, observer)) {}
        }
      }
      #expect(revived.count == 0)
      #expect(deinits.count == 1)
      #expect(reference.object == nil)
      #expect(entry.observer == nil)
    }
  }

  @Test("an entry dropped when its observer died releases its captures while the token lives")
  func observerDeathReleasesCapturesWhileTheTokenLives() {
    let list = ObserverList<Int>()
    var observer: Tracked? = Tracked()
    var captured: Tracked? = Tracked("captured")
    let watch = Weak(captured)
    let token = list.subscribe(
      ObserverEntry(observer: observer!, keyed: true, delivery: .synchronous) {
        [captured] _, _ in withExtendedLifetime(captured) {}
      }, endsWithToken: false)
    captured = nil
    list.post(1)
    #expect(watch.object != nil)
    observer = nil
    // The post finds the observer gone and purges its entry.
    list.post(2)
    #expect(watch.object == nil)
    #expect(token.isCancelled)
    token.cancel()
    #expect(list.count == 0)
  }

  @Test("an entry that outlives its list reads no list, and its token cancels it safely")
  func entryOutlivesItsList() {
    var list: ObserverList<Int>? = ObserverList<Int>()
    let watch = Weak(list)
    // Held here as a queued delivery would hold it: the entry outlives the list's storage.
    let entry = ObserverEntry<Int>(delivery: .synchronous) { _ in }
    let token = list!.subscribe(entry, endsWithToken: true)
    #expect(entry.list === list)
    list = nil
    // The entry kept the list's memory, not the list: it was deinitialized, and loading it
    // neither revives it nor reads freed memory.
    #expect(watch.object == nil)
    #expect(entry.list == nil)
    #expect(entry.list == nil)
    token.cancel()
    #expect(entry.isCancelled)
  }

  @Test("loads of an entry's list racing the list's last release never hand out a dead list")
  func entryListLoadsRacingTheLastRelease() {
    for _ in 0..<300 {
      let holder = Mutex<ObserverList<Int>?>(ObserverList<Int>())
      let entry = ObserverEntry<Int>(delivery: .synchronous) { _ in }
      let token = holder.withLock { $0!.subscribe(entry, endsWithToken: true) }
      DispatchQueue.concurrentPerform(iterations: 3) { index in
        if index == 0 {
          let last = holder.withLock { $0.take() }
          _ = consume last
          return
        }
        // A list handed out here is alive: removing the entry from it must not crash.
        for _ in 0..<50 { entry.list?.remove(entry) }
      }
      #expect(entry.list == nil)
      token.cancel()
    }
  }

  @Test("an entry removed by observer or by removeAll releases its captures while the token lives")
  func removalReleasesCapturesWhileTheTokenLives() {
    let list = ObserverList<Int>()
    let observer = Tracked()
    var captured: Tracked? = Tracked("captured")
    let byObserver = Weak(captured)
    let first = list.subscribe(
      ObserverEntry(observer: observer, keyed: true, delivery: .synchronous) {
        [captured] _, _ in withExtendedLifetime(captured) {}
      }, endsWithToken: false)
    captured = Tracked("captured")
    let byRemoveAll = Weak(captured)
    let second = list.subscribe(
      ObserverEntry(delivery: .synchronous) { [captured] _ in withExtendedLifetime(captured) {} },
      endsWithToken: true)
    captured = nil
    list.removeObserver(observer)
    #expect(byObserver.object == nil)
    #expect(first.isCancelled)
    #expect(byRemoveAll.object != nil)
    list.removeAll()
    #expect(byRemoveAll.object == nil)
    #expect(second.isCancelled)
  }

  @Test("cancels racing posts and queued deliveries release every capture while the tokens live")
  func cancelsRacingPostsReleaseCaptures() {
    let list = ObserverList<Int>()
    let queue = DispatchQueue(label: "UnownedReferenceTests.queued")
    let created = Counter()
    let released = Counter()
    let tokens = Recorder<Subscription>()
    let poster: @Sendable () -> Void = { list.post(1) }
    let subscriber: @Sendable (Delivery) -> @Sendable () -> Void = { delivery in
      {
        created.increment()
        let captured = Tracked(onDeinit: { released.increment() })
        let token = list.subscribe(
          ObserverEntry(delivery: delivery) { _ in withExtendedLifetime(captured) {} },
          endsWithToken: true)
        list.post(2)
        token.cancel()
        // Kept past the end of the run: what the handler captured must go without it.
        tokens.record(token)
      }
    }
    let finished = runThreads(
      [poster, poster, subscriber(.synchronous), subscriber(.queue(queue))], seconds: 0.5)
    #expect(finished)
    // Every queued delivery has run (or been skipped) once the queue has drained.
    queue.sync {}
    // The last queued call of a cancelled entry may still be releasing it: wait, bounded.
    let deadline = ContinuousClock.now + .seconds(5)
    while released.count != created.count && ContinuousClock.now < deadline {
      queue.sync {}
    }
    #expect(created.count > 0)
    #expect(released.count == created.count)
    let tokensCancelled = tokens.values.allSatisfy { $0.isCancelled }
    #expect(tokensCancelled)
    #expect(list.count == 0)
  }
}
