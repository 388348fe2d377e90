import EventTestSupport
import EventTyped
import Testing

@Suite("Event values")
struct EventValuesTests {
  @Test("two consumers each get every value, in post order")
  func twoConsumers() async {
    let event = Event<Int>()
    let first = event.values
    let second = event.values
    for value in 1...3 { event.post(value) }

    async let firstValues = first.prefix(3).collect()
    async let secondValues = second.prefix(3).collect()

    #expect(await firstValues == [1, 2, 3])
    #expect(await secondValues == [1, 2, 3])
  }

  @Test("a consumer gets values posted while it iterates, from another task")
  func concurrentConsumer() async {
    let event = Event<(String, Int)>()
    let stream = event.values
    let consumer = Task {
      var received: [String] = []
      for await (text, number) in stream {
        received.append("\(text)\(number)")
        if received.count == 2 { break }
      }
      return received
    }
    event.post("a", 1)
    event.post(("b", 2))

    #expect(await consumer.value == ["a1", "b2"])
  }

  @Test("a stream only gets values posted after it was created")
  func onlyLaterValues() async {
    let event = Event<Int>()
    event.post(0)
    let stream = event.values
    event.post(1)
    #expect(await stream.prefix(1).collect() == [1])
  }

  @Test("a slow consumer misses nothing: the default buffer is unbounded")
  func slowConsumerUnbounded() async {
    let event = Event<Int>()
    let stream = event.values
    for value in 0..<1_000 { event.post(value) }

    let received = await stream.prefix(1_000).collect()

    #expect(received == Array(0..<1_000))
  }

  @Test("a bounded stream keeps only the newest values for a slow consumer")
  func slowConsumerBufferingNewest() async {
    let event = Event<Int>()
    let stream = event.values(bufferingPolicy: .bufferingNewest(2))
    for value in 0..<10 { event.post(value) }
    event.unregisterAll()

    #expect(await stream.collect() == [8, 9])
  }

  @Test("streams finish when the event is deallocated")
  func finishesWithEvent() async {
    weak var weakEvent: Event<Int>?
    let stream: AsyncStream<Int>
    do {
      let event = Event<Int>()
      weakEvent = event
      stream = event.values
      event.post(1)
    }
    #expect(weakEvent == nil)
    #expect(await stream.collect() == [1])
  }

  @Test("unregisterAll finishes the streams")
  func unregisterAllFinishes() async {
    let event = Event<Int>()
    let stream = event.values
    event.post(1)
    event.unregisterAll()
    event.post(2)
    #expect(await stream.collect() == [1])
    #expect(event.observerCount == 0)
  }

  @Test("ending the iteration ends the stream's registration")
  func breakEndsRegistration() async {
    let event = Event<Int>()
    do {
      let stream = event.values
      #expect(event.observerCount == 1)
      event.post(1)
      for await _ in stream { break }
    }
    #expect(event.observerCount == 0)
  }

  @Test("releasing a stream that was never read ends its registration")
  func unreadStreamEndsRegistration() {
    let event = Event<Int>()
    do {
      let stream = event.values
      _ = stream
      #expect(event.observerCount == 1)
    }
    #expect(event.observerCount == 0)
  }

  @Test("cancelling the consuming task ends the stream's registration")
  func taskCancellationEndsRegistration() async throws {
    let event = Event<Int>()
    let started = Signal()
    let stream = event.values
    let consumer = Task {
      var count = 0
      for await _ in stream {
        count += 1
        started.fire()
      }
      return count
    }
    event.post(1)
    try #require(await started.arrival())
    consumer.cancel()

    #expect(await consumer.value == 1)
    #expect(event.observerCount == 0)
  }
}
