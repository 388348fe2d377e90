import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let once = Notification.Name("EventRAIITests.once")
}

/// A sender to filter by.
private final class Sender: Sendable {}

@Suite("observeOnce")
struct ObserveOnceTests {
  @Test("observes the next matching notification only, then ends by itself")
  func once() {
    let center = NotificationCenter()
    let calls = Counter()
    let token = center.observeOnce(.once) { _ in calls.increment() }
    #expect(!token.isCancelled)
    center.post(name: .once, object: nil)
    center.post(name: .once, object: nil)
    #expect(calls.count == 1)
    #expect(token.isCancelled)
  }

  @Test("a notification from another sender does not use it up")
  func senderFilter() {
    let center = NotificationCenter()
    let watched = Sender()
    let log = Recorder<Bool>()
    center.observeOnce(.once, object: watched) { note in
      log.record(note.object as? Sender === watched)
    }
    center.post(name: .once, object: Sender())
    center.post(name: .once, object: watched)
    center.post(name: .once, object: watched)
    #expect(log.values == [true])
  }

  @Test("cancelled first, it never runs; a dropped token does not end it")
  func cancelAndDrop() {
    let center = NotificationCenter()
    let cancelled = Counter()
    let dropped = Counter()
    center.observeOnce(.once) { _ in cancelled.increment() }.cancel()
    center.observeOnce(.once) { _ in dropped.increment() }
    center.post(name: .once, object: nil)
    #expect(cancelled.count == 0)
    #expect(dropped.count == 1)
  }

  @Test("a post made inside the handler does not run it again")
  func reentrant() {
    let center = NotificationCenter()
    let calls = Counter()
    center.observeOnce(.once) { _ in
      if calls.increment() == 1 { center.post(name: .once, object: nil) }
    }
    center.post(name: .once, object: nil)
    #expect(calls.count == 1)
  }
}

@Suite("observeOnce Stress")
struct ObserveOnceStressTests {
  @Test("many threads posting at once run it exactly once, round after round")
  func exactlyOnce() {
    for _ in 0..<100 {
      let center = NotificationCenter()
      let calls = Counter()
      let token = center.observeOnce(.once) { _ in calls.increment() }
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        center.post(name: .once, object: nil)
      }
      #expect(calls.count == 1)
      #expect(token.isCancelled)
    }
  }
}
