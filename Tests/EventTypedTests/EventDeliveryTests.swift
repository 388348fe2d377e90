import EventTestSupport
import EventTyped
import Testing

/// Marks the main queue, to tell whether a handler runs on the main actor without
/// `Thread.isMainThread` (which is wrong for the main actor on Linux under `swift test`).
private let mainQueueKey: DispatchSpecificKey<Int> = {
  let key = DispatchSpecificKey<Int>()
  DispatchQueue.main.setSpecific(key: key, value: 1)
  return key
}()

private func isOnMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == 1
}

@MainActor
final class MainActorScreen {
  let onMainActor = Recorder<Bool>()

  func show(_ text: String) {
    onMainActor.record(isOnMainQueue())
  }
}

@Suite("Event delivery")
struct EventDeliveryTests {
  @Test("synchronous delivery runs every handler on the posting queue before post returns")
  func synchronousDelivery() throws {
    let queue = DispatchQueue(label: "poster")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let onPoster = Recorder<Bool>()
    let event = Event<Int>()
    let token = event.subscribe { _ in onPoster.record(DispatchQueue.getSpecific(key: key) == 7) }
    let returned = Recorder<Int>()

    queue.async {
      event.post(1)
      returned.record(onPoster.count)
    }
    try #require(drain(queue))

    #expect(onPoster.values == [true])
    #expect(returned.values == [1])
    token.cancel()
  }

  @Test("queue delivery runs handlers on the queue, in post order, after post returns")
  func queueDelivery() throws {
    let queue = DispatchQueue(label: "delivery")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 9)
    let log = Recorder<String>()
    let event = Event<Int>(delivery: .queue(queue))
    let a = Tracked("A")
    event.register(a) { observer, value in
      let onQueue = DispatchQueue.getSpecific(key: key) == 9
      log.record("\(observer.name)\(value) \(onQueue ? "on queue" : "elsewhere")")
    }

    queue.suspend()
    event.post(1)
    event.post(2)
    let countWhenPostReturned = log.count
    queue.resume()
    try #require(drain(queue))

    #expect(countWhenPostReturned == 0)
    #expect(log.values == ["A1 on queue", "A2 on queue"])
  }

  @Test("a delivery already queued does not reach a handler cancelled since")
  func queuedDeliveryAfterCancel() throws {
    let queue = DispatchQueue(label: "cancelled")
    let calls = Counter()
    let event = Event<Int>(delivery: .queue(queue))
    let token = event.subscribe { _ in calls.increment() }

    queue.suspend()
    event.post(1)
    token.cancel()
    queue.resume()
    try #require(drain(queue))

    #expect(calls.count == 0)
  }

  @Test("a delivery already queued does not reach an observer unregistered since")
  func queuedDeliveryAfterUnregister() throws {
    let queue = DispatchQueue(label: "unregistered")
    let log = Recorder<String>()
    let event = Event<String>(delivery: .queue(queue))
    let a = Listener("A", log: log)
    event.register(a, function: Listener.received)

    queue.suspend()
    event.post("x")
    event.unregister(a)
    queue.resume()
    try #require(drain(queue))

    #expect(log.values.isEmpty)
  }

  @Test("synchronous delivery from the main actor does not deadlock")
  @MainActor
  func synchronousFromMainActor() {
    let calls = Counter()
    let event = Event<Int>()
    let token = event.subscribe { _ in calls.increment() }
    event.post(1)
    #expect(calls.count == 1)
    token.cancel()
  }

  @Test("main-actor delivery runs inline when the post is on the main actor")
  @MainActor
  func mainActorInline() {
    let event = Event<String>(delivery: .mainActor)
    let screen = MainActorScreen()
    event.register(screen, function: MainActorScreen.show)

    event.post("now")

    #expect(screen.onMainActor.values == [true])
  }

  @Test("main-actor delivery from another thread is scheduled onto the main actor")
  @MainActor
  func mainActorScheduled() async throws {
    let event = Event<String>(delivery: .mainActor)
    let screen = MainActorScreen()
    event.register(screen, function: MainActorScreen.show)
    let countWhenPostReturned = Recorder<Int>()
    let recorded = screen.onMainActor

    try #require(
      onOtherThread {
        event.post("later")
        countWhenPostReturned.record(recorded.count)
      })
    await drainMainQueue()

    #expect(countWhenPostReturned.values == [0])
    #expect(screen.onMainActor.values == [true])
  }

  @Test("a @MainActor method with synchronous delivery still runs on the main actor")
  @MainActor
  func mainActorMethodSynchronous() async throws {
    let event = Event<String>()
    let screen = MainActorScreen()
    event.register(screen, function: MainActorScreen.show)
    let recorded = screen.onMainActor

    try #require(onOtherThread { event.post("off main") })
    #expect(recorded.values.isEmpty, "scheduled, not run on the posting thread")
    await drainMainQueue()

    #expect(recorded.values == [true])
  }
}
