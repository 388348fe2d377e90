import EventTestSupport
import EventTyped
import Testing

@Suite("Event values after cancellation")
struct ValuesCancellationTests {
  @Test("a consumer that cancels its own task on 3 gets [1, 2, 3], not what was buffered")
  func cancelsItselfOnThree() async {
    let event = Event<Int>()
    let stream = event.values
    for value in 1...5 { event.post(value) }
    let consumer = Task {
      var received: [Int] = []
      for await value in stream {
        received.append(value)
        if value == 3 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return received
    }
    #expect(await consumer.value == [1, 2, 3])
    #expect(event.observerCount == 0)
  }

  @Test("a consumer whose task is cancelled from outside gets nothing that was buffered")
  func cancelledFromOutside() async throws {
    let event = Event<Int>()
    let stream = event.values
    let received = Signal()
    let resume = Signal()
    let consumer = Task {
      var values: [Int] = []
      for await value in stream {
        values.append(value)
        received.fire()
        // Waits, off the pool, while the test posts more and cancels.
        _ = await resume.arrival()
      }
      return values
    }
    event.post(1)
    try #require(await received.arrival())
    event.post(2)
    event.post(3)
    consumer.cancel()
    resume.fire()
    #expect(await consumer.value == [1])
    #expect(event.observerCount == 0)
  }

  @Test("a task cancelled before it first reads gets nil at once")
  func cancelledBeforeReading() async {
    let event = Event<Int>()
    let stream = event.values
    event.post(1)
    let consumer = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var iterator = stream.makeAsyncIterator()
      return await iterator.next()
    }
    #expect(await consumer.value == nil)
    #expect(event.observerCount == 0)
  }

  @Test("a bounded stream read after cancellation drops what it buffered too")
  func boundedStream() async {
    let event = Event<Int>()
    let stream = event.values(bufferingPolicy: .bufferingOldest(3))
    for value in 1...5 { event.post(value) }
    let consumer = Task {
      var received: [Int] = []
      for await value in stream {
        received.append(value)
        if value == 2 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return received
    }
    #expect(await consumer.value == [1, 2])
  }

  @Test("a value read from the stream is released once the consumer drops it")
  func readValueIsReleased() async {
    let event = Event<Tracked>()
    let stream = event.values
    var posted: Tracked? = Tracked("payload")
    let gone = Weak(posted)
    event.post(posted!)
    posted = nil
    var iterator = stream.makeAsyncIterator()
    var read = await iterator.next()
    #expect(read != nil)
    read = nil
    #expect(gone.object == nil)
    withExtendedLifetime(iterator) {}
  }
}
