import EventTestSupport
import EventTyped
import Foundation
import Testing

@Suite("subscribeOnce")
struct SubscribeOnceTests {
  @Test("runs for the next post only, then ends by itself and counts drop")
  func runsOnce() {
    let event = Event<Int>()
    let log = Recorder<Int>()
    let token = event.subscribeOnce { log.record($0) }
    #expect(event.observerCount == 1)
    #expect(!token.isCancelled)
    event.post(1)
    event.post(2)
    #expect(log.values == [1])
    #expect(token.isCancelled)
    #expect(event.observerCount == 0)
  }

  @Test("the token may be dropped: releasing it does not end the registration")
  func droppedToken() {
    let event = Event<Int>()
    let log = Recorder<Int>()
    event.subscribeOnce { log.record($0) }
    event.post(7)
    #expect(log.values == [7])
  }

  @Test("cancelled before a post, it never runs")
  func cancelledFirst() {
    let event = Event<Int>()
    let log = Recorder<Int>()
    event.subscribeOnce { log.record($0) }.cancel()
    event.post(1)
    #expect(log.values.isEmpty)
    #expect(event.observerCount == 0)
  }

  @Test("a post made inside the handler does not run it again")
  func reentrantPost() {
    let event = Event<Int>()
    let log = Recorder<Int>()
    event.subscribeOnce { value in
      log.record(value)
      if value == 1 { event.post(2) }
    }
    event.post(1)
    #expect(log.values == [1])
  }

  @Test("with a queue delivery it runs once, on the queue")
  func queued() {
    let queue = DispatchQueue(label: "once")
    let event = Event<Int>(delivery: .queue(queue))
    let log = Recorder<Int>()
    event.subscribeOnce { log.record($0) }
    event.post(1)
    event.post(2)
    #expect(drain(queue))
    #expect(log.values == [1])
  }
}

@Suite("subscribeOnce Stress")
struct SubscribeOnceStressTests {
  @Test("many threads posting at once run it exactly once, round after round")
  func exactlyOnceUnderConcurrentPosts() {
    for _ in 0..<200 {
      let event = Event<Int>()
      let calls = Counter()
      let token = event.subscribeOnce { _ in calls.increment() }
      DispatchQueue.concurrentPerform(iterations: 8) { event.post($0) }
      #expect(calls.count == 1)
      #expect(token.isCancelled)
      #expect(event.observerCount == 0)
    }
  }
}
