import Dispatch
import EventTestSupport
import Foundation
import Synchronization
import Testing

@testable import EventCore

@Suite("Core stress")
struct CoreStressTests {
  @Test("8 threads post while 4 subscribe and cancel: no post begun after cancel returned calls")
  func postersAndCancellers() {
    let list = ObserverList<Int>()
    // Cancels completed so far. A poster reads it before it begins and posts what it read, so
    // a payload at or past a subscription's own number is a post that began after that
    // subscription's `cancel()` returned.
    let cancelsReturned = Atomic<Int>(0)
    let violations = Counter()
    let delivered = Counter()
    let poster: @Sendable () -> Void = { list.post(cancelsReturned.load(ordering: .acquiring)) }
    let subscriber: @Sendable () -> Void = {
      let cancelledAt = Atomic<Int>(.max)
      let token = list.subscribe(
        ObserverEntry(delivery: .synchronous) { begunAt in
          if begunAt >= cancelledAt.load(ordering: .acquiring) { violations.increment() }
          delivered.increment()
        },
        endsWithToken: true)
      for _ in 0..<20 { _ = list.count }
      token.cancel()
      let number = cancelsReturned.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
      cancelledAt.store(number, ordering: .releasing)
      list.post(number)
    }
    let finished = runThreads(
      Array(repeating: poster, count: 8) + Array(repeating: subscriber, count: 4), seconds: 1.5)
    #expect(finished, "stress run did not finish")
    #expect(violations.count == 0)
    #expect(delivered.count > 0)
    #expect(list.count == 0)
  }

  @Test("keyed observers registered, re-registered and released on many threads stay consistent")
  func keyedChurn() {
    let list = ObserverList<Int>()
    let calls = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for round in 0..<300 {
        let observer = Tracked()
        for _ in 0..<2 {
          let entry = ObserverEntry<Int>(observer: observer, keyed: true, delivery: .synchronous) {
            _, _ in calls.increment()
          }
          _ = list.subscribe(entry, endsWithToken: false)
        }
        if round % 2 == worker % 2 { list.post(round) }
        list.removeObserver(observer)
      }
    }
    #expect(list.count == 0)
    #expect(calls.count > 0)
  }

  @Test(
    "a bag pruning while another thread ends its registrations releases no capture under its lock")
  func bagPruneReleasesOutsideItsLock() {
    // Each handler captures an object whose deinit, when it runs on the inserting thread, uses
    // the bag. One thread ends every registration while another inserts their tokens into the
    // bag, whose prune reads each token's weak reference to its registration: a read that ends
    // up holding the last reference must not release the handler, and so run that deinit,
    // under the bag's lock (it would deadlock on it).
    let deadline = ContinuousClock.now + .seconds(1.5)
    var rounds = 0
    while ContinuousClock.now < deadline {
      rounds += 1
      let list = ObserverList<Int>()
      let bag = SubscriptionBag()
      let inserter = Mutex<ObjectIdentifier?>(nil)
      let tokens = (0..<1_024).map { _ in
        let captured = Tracked {
          if inserter.withLock({ $0 }) == ObjectIdentifier(Thread.current) {
            bag.insert(Subscription {})
          }
        }
        return list.subscribe(
          ObserverEntry(delivery: .synchronous) { _ in withExtendedLifetime(captured) {} },
          endsWithToken: true)
      }
      let finished = DispatchGroup()
      let inserted = Signal()
      finished.onNewThread {
        _ = inserted.wait()
        list.removeAll()
      }
      finished.onNewThread {
        inserter.withLock { $0 = ObjectIdentifier(Thread.current) }
        for token in tokens { bag.insert(token) }
        // The next prune, due within these inserts, scans the tokens while the other thread
        // releases their registrations.
        inserted.fire()
        for _ in 0..<tokens.count * 2 { bag.insert(Subscription {}) }
      }
      guard finished.wait(timeout: .now() + 5) == .success else {
        Issue.record("round \(rounds) deadlocked: a deinit ran under the bag's lock")
        return
      }
    }
  }
}
