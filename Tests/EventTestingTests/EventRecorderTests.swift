import EventTestSupport
import EventTesting
import EventTyped
import Foundation
import Testing

@Suite("EventRecorder")
struct EventRecorderTests {
  @Test("records each post synchronously, on the posting thread, whatever the delivery")
  func synchronous() {
    let queue = DispatchQueue(label: "suspended")
    queue.suspend()
    defer { queue.resume() }
    let event = Event<(String, Int)>(delivery: .queue(queue))
    let recorder = EventRecorder(event)
    event.post("a", 1)
    #expect(recorder.values.map(\.0) == ["a"])
  }

  @Test("records from now on and leaves what is held in place, its own posts included")
  func fromNowOn() {
    let event = Event<Int>(replay: .untilObserved)
    event.post(1)
    let recorder = EventRecorder(event)
    event.post(2)
    #expect(recorder.values == [2])
    recorder.cancel()
    #expect(event.retained == [1, 2])
  }

  @Test("next returns the unread payloads in order, posted before or during the call")
  func nextInOrder() async throws {
    let event = Event<Int>()
    let recorder = EventRecorder(event)
    event.post(1)
    event.post(2)
    #expect(try await recorder.next(timeout: .seconds(10)) == 1)
    #expect(recorder.values == [1, 2], "reading values does not advance next")
    #expect(try await recorder.next(timeout: .seconds(10)) == 2)
    let later = Task { try await recorder.next(timeout: .seconds(10)) }
    #expect(onOtherThread { event.post(3) })
    #expect(try await later.value == 3)
  }

  @Test("next throws EventTimeout when nothing is posted in time")
  func nextTimeout() async {
    let recorder = EventRecorder(Event<Int>())
    await #expect(throws: EventTimeout(timeout: .milliseconds(20))) {
      try await recorder.next(timeout: .milliseconds(20))
    }
  }

  @Test("a payload posted after a timed-out next is returned by the next call")
  func noValueLostToATimeout() async throws {
    let event = Event<Int>()
    let recorder = EventRecorder(event)
    _ = try? await recorder.next(timeout: .milliseconds(5))
    event.post(1)
    #expect(try await recorder.next(timeout: .seconds(10)) == 1)
  }

  @Test("keeps its event alive, and lets it go when released")
  func lifetime() {
    var recorder: EventRecorder<Int>? = EventRecorder(Event<Int>())
    let event = Weak(recorder?.event)
    #expect(event.object != nil)
    recorder = nil
    #expect(event.object == nil)
  }

  @Test("expect passes on the payloads in order, and records an issue otherwise")
  func expectValues() async {
    let event = Event<Int>(delivery: .queue(DispatchQueue(label: "expect")))
    let recorder = EventRecorder(event)
    event.post(1)
    event.post(2)
    await recorder.expect([1, 2])
    await withKnownIssue {
      await recorder.expect([2, 1])
    }
    await withKnownIssue {
      await recorder.expect([1, 2, 3], within: .milliseconds(10))
    }
  }
}

@Suite("EventRecorder Stress")
struct EventRecorderStressTests {
  @Test("next reads every payload of concurrent posters exactly once")
  func concurrentPosters() async throws {
    let event = Event<Int>()
    let recorder = EventRecorder(event)
    let posters = 4
    let perPoster = 500
    let reader = Task {
      var read: [Int] = []
      for _ in 0..<(posters * perPoster) {
        read.append(try await recorder.next(timeout: .seconds(30)))
      }
      return read
    }
    DispatchQueue.concurrentPerform(iterations: posters) { poster in
      for value in 0..<perPoster { event.post(poster * perPoster + value) }
    }
    let read = try await reader.value
    #expect(read.sorted() == Array(0..<(posters * perPoster)))
    #expect(read == recorder.values)
  }
}
