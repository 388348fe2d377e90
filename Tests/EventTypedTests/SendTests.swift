import Dispatch
import EventTestSupport
import EventTyped
import Testing

/// An actor that records what it is handed, slowly enough that a producer outruns it.
private actor SlowConsumer {
  let seen = Recorder<Int>()

  func handle(_ value: Int) {
    for _ in 0..<2_000 { _ = seen.count }
    seen.record(value)
  }
}

@Suite("send: back-pressure that keeps every backlog at one payload")
struct SendTests {
  @Test("a producer that awaits each send finds a slow actor's and a slow queue's calls run")
  func pacesActorAndQueue() async {
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue))
    let consumer = SlowConsumer()
    let actorToken = event.register(consumer) { consumer, value in consumer.handle(value) }
    let onQueue = Recorder<Int>()
    let queueToken = event.subscribe { value in
      onQueue.record(value)
    }
    let lagging = Recorder<Int>()
    let finished = await finishes(within: 60) {
      for value in 0..<200 {
        await event.send(value)
        if consumer.seen.values.last != value || onQueue.values.last != value {
          lagging.record(value)
        }
      }
    }
    #expect(finished)
    #expect(lagging.values.isEmpty)
    withExtendedLifetime((actorToken, queueToken)) {}
  }

  @Test("a producer that awaits each send finds a slow async handler's call finished")
  func pacesAsyncHandler() async {
    let event = Event<Int>()
    let seen = Recorder<Int>()
    let token = event.subscribe { (value: Int) async in
      // Suspends, so the call spans a hop: a send that did not wait would find it unfinished.
      await Task.yield()
      seen.record(value)
    }
    let behind = Recorder<Int>()
    let finished = await finishes(within: 60) {
      for value in 0..<50 {
        await event.send(value)
        if seen.values.last != value { behind.record(value) }
      }
    }
    #expect(finished)
    #expect(behind.values.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test("a producer that awaits each send finds every values consumer has read the payload")
  func pacesValues() async {
    let event = Event<Int>()
    let stream = event.values
    let seen = Recorder<Int>()
    let consumer = Task {
      for await value in stream {
        seen.record(value)
        // Suspends, so the call spans a hop: a send that did not wait would find it unfinished.
        await Task.yield()
        if value == 30 { return }
      }
    }
    // The first post starts the iteration; a send waits only for a stream being iterated.
    event.post(0)
    let behind = Recorder<Int>()
    let finished = await finishes(within: 60) {
      while seen.count == 0 { await Task.yield() }
      for value in 1...30 {
        await event.send(value)
        // `value` has been read, so every value before it has been recorded.
        if seen.count < value { behind.record(value) }
      }
    }
    #expect(finished)
    #expect(behind.values.isEmpty)
    #expect(await finishes(within: 60) { await consumer.value })
  }

  @Test("a send made by the task that iterates values does not wait for its own stream")
  func sendFromTheConsumer() async {
    let event = Event<Int>()
    let stream = event.values
    let seen = Recorder<Int>()
    event.post(0)
    let finished = await finishes(within: 60) {
      for await value in stream {
        seen.record(value)
        if value == 3 { return }
        await event.send(value + 1)
      }
    }
    #expect(finished)
    #expect(seen.values == [0, 1, 2, 3])
  }

  @Test("a send made from an async handler of the same event does not wait for that handler")
  func sendFromItsOwnHandler() async {
    let event = Event<Int>()
    let seen = Recorder<Int>()
    let last = Signal()
    let token = event.subscribe { (value: Int) async in
      seen.record(value)
      if value < 3 { await event.send(value + 1) } else { last.fire() }
    }
    #expect(await finishes(within: 60) { await event.send(0) })
    // Each call's send posts the next value after it: a flush here would not wait for those.
    #expect(await last.arrival(seconds: 60))
    #expect(seen.values == [0, 1, 2, 3])
    withExtendedLifetime(token) {}
  }

  @Test("cancelling the sending task ends its wait, not the delivery")
  func cancellationEndsTheWait() async {
    let queue = DispatchQueue(label: "held")
    let event = Event<Int>(delivery: .queue(queue))
    let seen = Recorder<Int>()
    let token = event.subscribe { seen.record($0) }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    let sending = Task { await event.send(1) }
    sending.cancel()
    #expect(await finishes(within: 60) { _ = await sending.value })
    #expect(seen.values.isEmpty)
    held.fire()
    #expect(await finishes(within: 60) { await event.flush() })
    #expect(seen.values == [1])
    withExtendedLifetime(token) {}
  }

  @Test("send returns what post returns, and runs synchronous handlers before it suspends")
  func returnsReached() async {
    let event = Event<(String, Int)>()
    let seen = Recorder<String>()
    let token = event.subscribe { name, count in seen.record("\(name) \(count)") }
    let reached = await event.send("a", 1)
    #expect(reached == 1)
    #expect(seen.values == ["a 1"])
    withExtendedLifetime(token) {}
  }
}

@Suite("send on a keyed event: back-pressure per key")
struct KeyedSendTests {
  @Test("a producer that awaits each send to a key finds that key's queued calls run")
  func pacesAKey() async {
    let queue = DispatchQueue(label: "slow")
    let keyed = KeyedEvent<String, Int>(delivery: .queue(queue))
    let seen = Recorder<Int>()
    let token = keyed["a"].subscribe { value in
      seen.record(value)
    }
    let lagging = Recorder<Int>()
    let finished = await finishes(within: 60) {
      for value in 0..<100 {
        let reached = await keyed["a"].send(value)
        if reached != 1 || seen.values.last != value { lagging.record(value) }
      }
    }
    #expect(finished)
    #expect(lagging.values.isEmpty)
    #expect(await keyed.send(1, to: "nobody") == 0)
    withExtendedLifetime(token) {}
  }
}
