import EventTestSupport
import Synchronization
import Testing

@testable import EventCore

@Suite("Core stress")
struct CoreStressTests {
  @Test("8 threads post while 4 subscribe and cancel: no callback after cancel returned")
  func postersAndCancellers() {
    let list = ObserverList<Int>()
    let violations = Counter()
    let delivered = Counter()
    let poster: @Sendable () -> Void = { list.post(1) }
    let subscriber: @Sendable () -> Void = {
      let cancelReturned = Atomic<Bool>(false)
      let token = list.subscribe(
        ObserverEntry(delivery: .synchronous) { _ in
          if cancelReturned.load(ordering: .acquiring) { violations.increment() }
          delivered.increment()
        },
        endsWithToken: true)
      for _ in 0..<20 { _ = list.count }
      token.cancel()
      cancelReturned.store(true, ordering: .releasing)
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
}
