import EventTestSupport
import EventTesting
import EventTyped
import Foundation
import Testing

/// The EventTesting forms that take one key of a keyed event: they record that key's posts
/// alone, and are as passive on the keyed event as the Event forms are on an event.
@Suite("EventTesting with a KeyedEvent channel")
struct ChannelRecorderTests {
  @Test("a recorder of a channel records that key's posts, synchronously, whatever the delivery")
  func recordsItsKey() {
    let queue = DispatchQueue(label: "suspended")
    queue.suspend()
    defer { queue.resume() }
    let keyed = KeyedEvent<Int, String>(delivery: .queue(queue))
    let recorder = EventRecorder(keyed[1])
    keyed.post("a", to: 1)
    keyed.post("b", to: 2)
    keyed[1].post("c")
    #expect(recorder.values == ["a", "c"])
    #expect(recorder.count == 2)
  }

  @Test("recording a channel creates no key, and post's result leaves the recorder out")
  func createsNoKey() {
    let keyed = KeyedEvent<Int, Int>()
    let recorder = EventRecorder(keyed[1])
    #expect(keyed.keyCount == 0)
    #expect(keyed.post(1, to: 1) == 0)
    #expect(keyed[1].post(2) == 0)
    #expect(keyed.keyCount == 0)
    #expect(!keyed[1].isObserved)
    #expect(keyed[1].observerCount == 0)
    let token = keyed[1].subscribe { _ in }
    #expect(keyed.keyCount == 1)
    #expect(keyed.post(3, to: 1) == 1)
    #expect(keyed[1].observerCount == 1)
    token.cancel()
    #expect(keyed.keyCount == 0, "the recorder does not keep the key")
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("a channel's onObservedChange hears nothing of a recorder")
  func noObservationChange() {
    let keyed = KeyedEvent<Int, Int>()
    let changes = Recorder<Bool>()
    let hook = keyed[1].onObservedChange { changes.record($0) }
    var recorder: EventRecorder<Int>? = EventRecorder(keyed[1])
    keyed.post(1, to: 1)
    recorder = nil
    #expect(changes.values.isEmpty)
    keyed[1].subscribe { _ in }.cancel()
    #expect(changes.values == [true, false])
    hook.cancel()
    _ = recorder
  }

  @Test("keeps recording while the key is removed and made again, and stops when cancelled")
  func outlivesTheKey() {
    let keyed = KeyedEvent<Int, Int>()
    let recorder = EventRecorder(keyed[1])
    keyed[1].subscribe { _ in }.cancel()
    keyed.post(1, to: 1)
    let token = keyed[1].subscribe { _ in }
    keyed.post(2, to: 1)
    keyed[1].unregisterAll()
    keyed.post(3, to: 1)
    recorder.cancel()
    keyed.post(4, to: 1)
    #expect(recorder.values == [1, 2, 3])
    withExtendedLifetime(token) {}
  }

  @Test("records in post order when a handler posts to its key during a post")
  func reentrantPostOrder() {
    let keyed = KeyedEvent<Int, Int>()
    let recorder = EventRecorder(keyed[1])
    let token = keyed[1].subscribe { value in
      if value == 1 { keyed.post(2, to: 1) }
    }
    keyed.post(1, to: 1)
    #expect(recorder.values == [1, 2])
    token.cancel()
  }

  @Test("next and expect read a channel's posts, from any thread")
  func nextAndExpect() async throws {
    let keyed = KeyedEvent<Int, Int>(delivery: .queue(DispatchQueue(label: "next")))
    let recorder = EventRecorder(keyed[7])
    keyed.post(1, to: 7)
    #expect(try await recorder.next(timeout: .seconds(10)) == 1)
    let later = Task { try await recorder.next(timeout: .seconds(10)) }
    #expect(onOtherThread { keyed.post(2, to: 7) })
    #expect(try await later.value == 2)
    await recorder.expect([1, 2])
    await withKnownIssue {
      await recorder.expect([2, 1])
    }
    await #expect(throws: EventTimeout(timeout: .milliseconds(20))) {
      keyed.post(3, to: 8)
      _ = try await recorder.next(timeout: .milliseconds(20))
    }
  }

  @Test("keeps its keyed event alive, lets it go when released, and has no event")
  func lifetime() {
    var keyed: KeyedEvent<Int, Int>? = KeyedEvent()
    let watched = Weak(keyed)
    var recorder: EventRecorder<Int>? = EventRecorder(keyed![1])
    keyed = nil
    #expect(watched.object != nil)
    #expect(recorder?.event == nil)
    recorder = nil
    #expect(watched.object == nil)
  }

  @Test("an Event recorder still exposes its event")
  func eventRecorderHasItsEvent() {
    let event = Event<Int>()
    #expect(EventRecorder(event).event === event)
  }

  @Test("expectNoPost(on:) a channel passes when work posts to other keys only")
  func noPost() async {
    let keyed = KeyedEvent<Int, Int>()
    await expectNoPost(on: keyed[1]) { keyed.post(1, to: 2) }
    #expect(keyed.keyCount == 0)
    await withKnownIssue {
      await expectNoPost(on: keyed[1]) { keyed.post(1, to: 1) }
    }
  }

  @Test("expectNoPost(on:) a channel counts posts made by queued handlers of work's posts")
  func noPostFromQueuedHandlers() async {
    let keyed = KeyedEvent<Int, Int>(delivery: .queue(DispatchQueue(label: "trigger")))
    let token = keyed[1].subscribe { keyed.post($0, to: 2) }
    await withKnownIssue {
      await expectNoPost(on: keyed[2]) {
        keyed.post(1, to: 1)
        await keyed[1].flush()
      }
    }
    withExtendedLifetime(token) {}
  }

  @Test("expectNoPost(on:) a channel rethrows what work throws")
  func noPostRethrows() async {
    struct Failure: Error {}
    let keyed = KeyedEvent<Int, Int>()
    await #expect(throws: Failure.self) {
      try await expectNoPost(on: keyed[1]) { throw Failure() }
    }
  }

  @Test("DeliveryLog.expectNothing(after:) a channel flushes its key's deliveries, then checks")
  func expectNothingAfterAChannel() async {
    let keyed = KeyedEvent<Int, Int>(delivery: .queue(DispatchQueue(label: "nothing")))
    let log = DeliveryLog<String>()
    keyed[1].subscribe { log.record("late \($0)") }.cancel()
    keyed.post(1, to: 1)
    await log.expectNothing(after: keyed[1])
    let live = keyed[1].subscribe { log.record("live \($0)") }
    keyed.post(2, to: 1)
    await withKnownIssue { await log.expectNothing(after: keyed[1]) }
    #expect(log.entries == ["live 2"])
    withExtendedLifetime(live) {}
  }
}

@Suite("EventTesting with a KeyedEvent channel Stress")
struct ChannelRecorderStressTests {
  @Test("next reads every payload posted to its key by concurrent posters exactly once")
  func concurrentPosters() async throws {
    let keyed = KeyedEvent<Int, Int>()
    let recorder = EventRecorder(keyed[0])
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
      for value in 0..<perPoster {
        keyed.post(poster * perPoster + value, to: 0)
        keyed.post(-1, to: poster + 1)
      }
    }
    let read = try await reader.value
    #expect(read.sorted() == Array(0..<(posters * perPoster)))
    #expect(read == recorder.values)
    #expect(keyed.keyCount == 0)
  }
}
