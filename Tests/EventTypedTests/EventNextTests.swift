import EventTestSupport
import EventTesting
import EventTyped
import Foundation
import Testing

@Suite("Event.next")
struct EventNextTests {
  @Test("a reply posted inside work is returned: the wait is registered before work runs")
  func replyInsideWork() async throws {
    let replies = Event<Int>()
    let reply = try await replies.next(timeout: .seconds(10)) { replies.post(7) }
    #expect(reply == 7)
    #expect(replies.observerCount == 0, "the registration ended with the call")
  }

  @Test("a reply posted on another thread before the task suspends is returned")
  func replyFromAnotherThread() async throws {
    let replies = Event<Int>()
    let reply = try await replies.next(timeout: .seconds(10)) {
      #expect(onOtherThread { replies.post(3) })
    }
    #expect(reply == 3)
  }

  @Test("the predicate picks the payload; the others are ignored")
  func predicateFilters() async throws {
    let replies = Event<(id: Int, body: String)>()
    let reply = try await replies.next(where: { $0.id == 2 }, timeout: .seconds(10)) {
      replies.post((id: 1, body: "one"))
      replies.post((id: 2, body: "two"))
      replies.post((id: 3, body: "three"))
    }
    #expect(reply.body == "two")
  }

  @Test("without work, it waits for the next post made elsewhere")
  func waitsForALaterPost() async throws {
    let ticks = Event<Int>(delivery: .queue(DispatchQueue(label: "ticks")))
    let waiting = Task { try await ticks.next(timeout: .seconds(10)) }
    #expect(await eventually { ticks.observerCount == 1 })
    ticks.post(5)
    #expect(try await waiting.value == 5)
  }

  @Test("a timeout throws EventTimeout carrying the duration and ends the registration")
  func timeoutThrows() async {
    let replies = Event<Int>()
    let start = ContinuousClock.now
    await #expect(throws: EventTimeout(timeout: .milliseconds(50))) {
      try await replies.next(timeout: .milliseconds(50))
    }
    #expect(ContinuousClock.now - start >= .milliseconds(50))
    #expect(replies.observerCount == 0)
  }

  @Test("a payload the predicate rejects does not end the wait before the timeout")
  func rejectedPayloadThenTimeout() async {
    let replies = Event<Int>()
    await #expect(throws: EventTimeout.self) {
      try await replies.next(where: { $0 > 10 }, timeout: .milliseconds(20)) { replies.post(1) }
    }
    #expect(replies.observerCount == 0)
  }

  @Test("cancelling the task throws CancellationError and ends the registration")
  func cancellation() async {
    let replies = Event<Int>()
    let waiting = Task { try await replies.next() }
    #expect(await eventually { replies.observerCount == 1 })
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(replies.observerCount == 0)
  }

  @Test("a task cancelled before the call still gets the reply that work posts")
  func replyBeatsEarlierCancellation() async throws {
    let replies = Event<Int>()
    let waiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await replies.next { replies.post(1) }
    }
    #expect(try await waiting.value == 1)
  }

  @Test("a task cancelled before the call, with no reply, throws CancellationError at once")
  func earlierCancellationThrows() async {
    let replies = Event<Int>()
    let waiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await replies.next()
    }
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(replies.observerCount == 0)
  }

  @Test("with a replay, the oldest retained payload that matches comes first")
  func replayOldestFirst() async throws {
    let scores = Event<Int>(replay: .last(3))
    for score in [1, 2, 3, 4] { scores.post(score) }
    #expect(try await scores.next(timeout: .seconds(10)) == 2)
    #expect(try await scores.next(where: { $0 > 2 }, timeout: .seconds(10)) == 3)
    #expect(scores.retained == [2, 3, 4], "next reads the replay without consuming it")
  }

  @Test("with .untilObserved it takes the oldest held payload only, like subscribeOnce")
  func untilObservedTakesOldest() async throws {
    let inbox = Event<String>(replay: .untilObserved)
    for message in ["a", "b", "c"] { inbox.post(message) }
    #expect(try await inbox.next(timeout: .seconds(10)) == "a")
    #expect(inbox.retained == ["b", "c"])
    let log = Recorder<String>()
    let token = inbox.subscribe { log.record($0) }
    #expect(log.values == ["b", "c"], "the next registration still receives the rest")
    withExtendedLifetime(token) {}
  }

  @Test("with .untilObserved and a predicate, rejected held payloads are consumed")
  func untilObservedWithPredicate() async throws {
    let inbox = Event<Int>(replay: .untilObserved)
    for value in [1, 2, 3, 4] { inbox.post(value) }
    #expect(try await inbox.next(where: { $0.isMultiple(of: 3) }, timeout: .seconds(10)) == 3)
    #expect(inbox.retained == [4])
  }

  @Test("with .untilObserved and nothing held, a live post is returned and nothing is held")
  func untilObservedLive() async throws {
    let inbox = Event<Int>(replay: .untilObserved)
    #expect(try await inbox.next(timeout: .seconds(10)) { inbox.post(9) } == 9)
    #expect(inbox.retained.isEmpty)
  }

  @Test("next is one registration among others: the event's other observers get every post")
  func otherObserversUnaffected() async throws {
    let replies = Event<Int>(replay: .latest)
    let recorder = EventRecorder(replies)
    #expect(
      try await replies.next(where: { $0 == 2 }, timeout: .seconds(10)) {
        replies.post(1)
        replies.post(2)
      } == 2)
    replies.post(3)
    await recorder.expect([1, 2, 3])
    #expect(replies.observerCount == 0, "the wait has left; the recorder is passive")
  }

  @Test("it receives posts on the posting thread, whatever the event's delivery")
  func ignoresDelivery() async throws {
    let queue = DispatchQueue(label: "suspended")
    queue.suspend()
    defer { queue.resume() }
    let replies = Event<Int>(delivery: .queue(queue))
    #expect(try await replies.next(timeout: .seconds(10)) { replies.post(4) } == 4)
  }

  @MainActor
  @Test("work runs on the caller's actor and may use its state")
  func workOnCallersActor() async throws {
    var sent: [Int] = []
    let replies = Event<Int>()
    let reply = try await replies.next(timeout: .seconds(10)) {
      MainActor.assertIsolated()
      sent.append(1)
      replies.post(1)
    }
    #expect(reply == 1)
    #expect(sent == [1])
  }
}

/// Polls `condition`, bounded, for state another task reaches (a registration made in a task).
func eventually(
  within timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}
