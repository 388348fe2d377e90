import EventCore
import EventTestSupport
import EventTyped
import Synchronization
import Testing

@Suite("Reentrancy under concurrency (Stress)")
struct ReentrancyStressTests {
  @Test("a post made on another thread while a .queued post runs is delivered there at once")
  func otherThreadsDeliverAtOnce() {
    let event = Event<Int>(reentrancy: .queued)
    let log = Recorder<Int>()
    let deliveredBeforeReturn = Lock<Bool?>(nil)
    let token = event.subscribe { value in
      log.record(value)
      guard value == 1 else { return }
      let finished = onOtherThread { event.post(2) }
      deliveredBeforeReturn.withLock { $0 = finished && log.values.contains(2) }
    }
    event.post(1)
    #expect(deliveredBeforeReturn.withLock { $0 } == true)
    #expect(log.values == [1, 2])
    _ = token
  }

  @Test("threads posting nested .queued posts at once each see their own posts breadth-first")
  func concurrentThreadsKeepTheirOwnOrder() {
    let event = Event<Int>(reentrancy: .queued)
    let next = Atomic<Int>(1)
    let seenLater = Lock<[Int: [Int]]>([:])
    let tokens = [
      event.subscribe { value in
        if value < 0 { event.post(-value) }
      },
      event.subscribe { value in
        seenLater.withLock { $0[abs(value), default: []].append(value) }
      },
    ]
    let poster: @Sendable () -> Void = {
      let key = next.wrappingAdd(1, ordering: .relaxed).oldValue
      event.post(-key)
    }
    #expect(runThreads([poster, poster, poster, poster], seconds: 0.5))
    let byKey = seenLater.withLock { $0 }
    #expect(!byKey.isEmpty)
    let outOfOrder = byKey.filter { key, values in values != [-key, key] }
    #expect(outOfOrder.isEmpty, "\(outOfOrder.count) posts, such as \(outOfOrder.first.map { $0 })")
    _ = tokens
  }
}
