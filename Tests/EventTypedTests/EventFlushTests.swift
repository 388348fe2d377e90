import EventTestSupport
import EventTesting
import EventTyped
import Foundation
import Testing

@Suite("Event.flush")
struct EventFlushTests {
  @Test("waits for deliveries queued on a queue by earlier posts")
  func queued() async {
    let event = Event<Int>(delivery: .queue(DispatchQueue(label: "flush.queued")))
    let log = Recorder<Int>()
    let token = event.subscribe { value in
      Thread.sleep(forTimeInterval: 0.0001)
      log.record(value)
    }
    for value in 0..<100 { event.post(value) }
    #expect(await finishes { await event.flush() })
    #expect(log.values == Array(0..<100))
    withExtendedLifetime(token) {}
  }

  @MainActor
  @Test("from the main actor, waits for main-actor deliveries of background posts")
  func mainActorFromMainActor() async {
    let event = Event<Int>(delivery: .mainActor)
    let log = Recorder<Int>()
    let token = event.subscribe { log.record($0) }
    #expect(onOtherThread { for value in 0..<50 { event.post(value) } })
    // Suspends rather than blocks: the main actor runs the deliveries meanwhile.
    await event.flush()
    #expect(log.values == Array(0..<50))
    withExtendedLifetime(token) {}
  }

  @Test("off the main actor, waits for main-actor deliveries, read with no hop onto it")
  func mainActorFromElsewhere() async {
    let event = Event<Int>(delivery: .mainActor)
    let log = Recorder<Int>()
    let token = event.subscribe { value in
      Thread.sleep(forTimeInterval: 0.001)  // slow deliveries: a flush that waits for none fails
      log.record(value)
    }
    #expect(onOtherThread { for value in 0..<50 { event.post(value) } })
    #expect(await finishes { await event.flush() })
    #expect(log.values == Array(0..<50))
    withExtendedLifetime(token) {}
  }

  @MainActor
  @Test("waits for handlers isolated to the main actor, registered from it")
  func isolatedToMainActor() async {
    let event = Event<Int>()
    var received: [Int] = []
    let token = event.subscribe { value in received.append(value) }
    #expect(onOtherThread { for value in 0..<20 { event.post(value) } })
    await event.flush()
    #expect(received == Array(0..<20))
    withExtendedLifetime(token) {}
  }

  @Test("waits for handlers isolated to another actor")
  func actorHandlers() async {
    let event = Event<Int>()
    let log = Recorder<Int>()
    let store = Store(log)
    let token = await store.observe(event)
    for value in 0..<100 { event.post(value) }
    #expect(await finishes { await event.flush() })
    // Read without a hop onto the actor, which could run its deliveries first.
    #expect(log.values == Array(0..<100))
    #expect(await store.values == Array(0..<100))
    withExtendedLifetime(token) {}
  }

  @Test("waits for async handlers, which post does not wait for")
  func asyncHandlers() async {
    let event = Event<Int>()
    let log = Recorder<Int>()
    let token = event.subscribe { value async in
      await Task.yield()
      log.record(value)
    }
    for value in 0..<50 { event.post(value) }
    #expect(await finishes { await event.flush() })
    #expect(log.values == Array(0..<50))
    withExtendedLifetime(token) {}
  }

  @Test("does not wait for an async handler that was cancelled with posts queued")
  func cancelledAsyncHandler() async {
    let event = Event<Int>()
    let entered = Signal()
    let release = Signal()
    let token = event.subscribe { value async in
      if value == 0 {
        entered.fire()
        _ = await release.arrival()
      }
    }
    for value in 0..<10 { event.post(value) }
    #expect(await entered.arrival())
    token.cancel()
    release.fire()
    #expect(await finishes { await event.flush() })
  }

  @Test("does not wait for posts made after it was called, even by the handlers it waits for")
  func laterPostsNotWaitedFor() async {
    let queue = DispatchQueue(label: "flush.chain")
    let event = Event<Int>(delivery: .queue(queue))
    // Every delivery posts the next value: an endless chain of posts made after the call.
    let token = event.subscribe { value in event.post(value + 1) }
    event.post(0)
    #expect(await finishes { await event.flush() })
    token.cancel()
    #expect(drain(queue))
  }

  @Test("an observer released with deliveries queued gets none of them, and is deallocated")
  func releasedObserverGetsNothing() async {
    final class Screen: Sendable {}
    let queue = DispatchQueue(label: "flush.released")
    let event = Event<Int>(delivery: .queue(queue))
    let log = DeliveryLog<Int>()
    var screen: Screen? = Screen()
    let watch = ReleaseWatch(screen!)
    event.register(screen!) { _, value in log.record(value) }
    queue.suspend()
    event.post(1)
    screen = nil
    queue.resume()
    await log.expectNothing(after: event)
    await watch.expectReleased()
  }

  @Test("with no registration, or only synchronous ones, returns at once")
  func nothingToWaitFor() async {
    let event = Event<Int>()
    #expect(await finishes { await event.flush() })
    let token = event.subscribe { _ in }
    event.post(1)
    #expect(await finishes { await event.flush() })
    withExtendedLifetime(token) {}
  }
}

/// An actor whose handler runs on it.
actor Store {
  private(set) var values: [Int] = []
  private let log: Recorder<Int>

  init(_ log: Recorder<Int>) {
    self.log = log
  }

  func observe(_ event: Event<Int>) -> Subscription {
    event.subscribe { value in
      Thread.sleep(forTimeInterval: 0.0005)  // slow deliveries: a flush that waits for none fails
      self.values.append(value)
      self.log.record(value)
    }
  }
}
