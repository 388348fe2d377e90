import Dispatch
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// `next` ends its registration inside the post that delivers its payload: a finished wait is
/// never counted as reached, never runs its predicate again, and takes nothing more from an
/// `.untilObserved` event.
@Suite("Event.next leaves inside its post")
struct NextLeavesInItsPostTests {
  @Test("with .untilObserved, a post after the reply is held for the next registration")
  func laterPostIsHeld() async throws {
    let inbox = Event<Int>(replay: .untilObserved)
    let counts = Recorder<Int>()
    let reply = try await inbox.next(timeout: .seconds(10)) {
      counts.record(inbox.post(1))
      counts.record(inbox.post(2))
    }
    #expect(reply == 1)
    #expect(counts.values == [1, 0], "the second post reached nobody")
    let late = Recorder<Int>()
    let token = inbox.subscribe { late.record($0) }
    #expect(late.values == [2])
    token.cancel()
  }

  @Test("a finished wait is not counted: the next post reaches nobody, and counts drop at once")
  func finishedWaitIsNotCounted() async throws {
    let replies = Event<Int>()
    let counts = Recorder<Int>()
    let reply = try await replies.next(timeout: .seconds(10)) {
      counts.record(replies.post(1))
      counts.record(replies.observerCount)
      counts.record(replies.post(2))
    }
    #expect(reply == 1)
    #expect(counts.values == [1, 0, 0])
  }

  @Test("the predicate runs once per payload until one matches, and never after")
  func predicateStopsAtTheMatch() async throws {
    let replies = Event<Int>()
    let calls = Counter()
    let reply = try await replies.next(
      where: { value in
        _ = calls.increment()
        return value == 1
      }, timeout: .seconds(10)
    ) {
      for value in 0...3 { replies.post(value) }
    }
    #expect(reply == 1)
    #expect(calls.count == 2)
  }

  @Test("posts from many threads at once: one is the reply, every other stays held")
  func concurrentPostsLoseNothing() async throws {
    let inbox = Event<Int>(replay: .untilObserved)
    let start = DispatchSemaphore(value: 0)
    let posted = DispatchGroup()
    let reply = try await inbox.next(timeout: .seconds(10)) {
      for value in 0..<8 {
        posted.onNewThread {
          start.wait()
          inbox.post(value)
        }
      }
      for _ in 0..<8 { start.signal() }
    }
    #expect(posted.wait(timeout: .now() + 10) == .success)
    let held = inbox.retained
    #expect(held.count == 7)
    #expect(Set(held + [reply]) == Set(0..<8))
  }

  @Test("a wait that times out leaves what is posted afterwards held")
  func timeoutTakesNothing() async {
    let inbox = Event<Int>(replay: .untilObserved)
    await #expect(throws: EventTimeout.self) {
      try await inbox.next(timeout: .milliseconds(20))
    }
    #expect(inbox.post(5) == 0)
    #expect(inbox.retained == [5])
  }

  @Test("held payloads the predicate rejects are consumed; a match stops the taking")
  func heldPayloadsTakenInOrder() async throws {
    let inbox = Event<Int>(replay: .untilObserved)
    for value in 1...4 { inbox.post(value) }
    let reply = try await inbox.next(where: { $0 % 2 == 0 }, timeout: .seconds(10))
    #expect(reply == 2)
    #expect(inbox.retained == [3, 4])
    #expect(inbox.observerCount == 0, "a held match is taken without a registration")
  }
}
