import Dispatch
import EventTestSupport
import EventTyped
import Testing

/// `.untilObserved` hands a held payload over only when a handler starts on it: what a
/// registration drops unrun goes back to the front of the hold.
@Suite("untilObserved hand-over")
struct UntilObservedHandOverTests {
  /// An observer whose method records what it is shown.
  final class Screen: Sendable {
    let log: Recorder<Int>
    init(_ log: Recorder<Int>) { self.log = log }
    func show(_ value: Int) { log.record(value) }
  }

  /// An event delivering on a serial queue that is suspended until `resume()`, holding 1, 2, 3.
  private static func heldOnSuspendedQueue() -> (Event<Int>, DispatchQueue) {
    let queue = DispatchQueue(label: "untilObserved.handOver")
    queue.suspend()
    let event = Event<Int>(delivery: .queue(queue), replay: .untilObserved)
    for value in 1...3 { event.post(value) }
    return (event, queue)
  }

  /// What a synchronous registration made now receives of what is held.
  private static func handedOver(_ event: Event<Int>, queue: DispatchQueue) -> [Int] {
    let next = Recorder<Int>()
    let token = event.subscribe { next.record($0) }
    _ = drain(queue)
    token.cancel()
    return next.values
  }

  @Test("a registration cancelled before its queued replay runs leaves the posts held")
  func cancelledBeforeReplayRuns() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let first = Recorder<Int>()
    let token = event.subscribe { first.record($0) }
    token.cancel()
    #expect(event.latest == 3)
    queue.resume()
    #expect(drain(queue))
    #expect(first.values.isEmpty)
    #expect(Self.handedOver(event, queue: queue) == [1, 2, 3])
  }

  @Test("posts held after the cancel come after the ones given back")
  func givenBackAheadOfLaterPosts() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let token = event.subscribe { _ in }
    token.cancel()
    event.post(4)
    queue.resume()
    #expect(drain(queue))
    #expect(Self.handedOver(event, queue: queue) == [1, 2, 3, 4])
  }

  @Test("an observer that dies before its queued replay runs leaves the posts held")
  func observerDiesBeforeReplayRuns() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let log = Recorder<Int>()
    var screen: Screen? = Screen(log)
    event.register(screen!, function: Screen.show)
    let gone = Weak(screen)
    screen = nil
    #expect(gone.object == nil)
    queue.resume()
    #expect(drain(queue))
    #expect(log.values.isEmpty)
    event.post(4)
    #expect(Self.handedOver(event, queue: queue) == [1, 2, 3, 4])
  }

  @Test("a post after the observer died, before its replay ran, is held behind the others")
  func postAfterDeathBeforeReplayRuns() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let log = Recorder<Int>()
    var screen: Screen? = Screen(log)
    event.register(screen!, function: Screen.show)
    screen = nil
    event.post(4)
    queue.resume()
    #expect(drain(queue))
    #expect(log.values.isEmpty)
    #expect(Self.handedOver(event, queue: queue) == [1, 2, 3, 4])
  }

  @Test("re-registering the observer before its queued replay runs hands the posts to the new one")
  func reregisteredBeforeReplayRuns() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let log = Recorder<Int>()
    let replaced = Recorder<Int>()
    let screen = Screen(log)
    event.register(screen) { _, value in replaced.record(value) }
    event.register(screen, function: Screen.show)
    queue.resume()
    #expect(drain(queue))
    #expect(replaced.values.isEmpty)
    #expect(log.values == [1, 2, 3])
  }

  @Test("a handler that cancels on the first payload hands the rest back")
  func cancelledAfterTheFirst() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let first = Recorder<Int>()
    let token = Lock<Subscription?>(nil)
    token.withLock { tokenSlot in
      tokenSlot = event.subscribe { value in
        first.record(value)
        token.withLock { $0 }?.cancel()
      }
    }
    queue.resume()
    #expect(drain(queue))
    #expect(first.values == [1])
    #expect(Self.handedOver(event, queue: queue) == [2, 3])
  }

  @Test("a subscribeOnce cancelled before its queued replay runs leaves the oldest held first")
  func onceCancelledBeforeReplayRuns() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let once = Recorder<Int>()
    let token = event.subscribeOnce { once.record($0) }
    #expect(event.latest == 3)
    token.cancel()
    queue.resume()
    #expect(drain(queue))
    #expect(once.values.isEmpty)
    #expect(Self.handedOver(event, queue: queue) == [1, 2, 3])
  }

  @Test("unregisterAll before the queued replay runs leaves the posts held")
  func unregisterAllBeforeReplayRuns() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let first = Recorder<Int>()
    let token = event.subscribe { first.record($0) }
    event.unregisterAll()
    queue.resume()
    #expect(drain(queue))
    #expect(first.values.isEmpty)
    #expect(Self.handedOver(event, queue: queue) == [1, 2, 3])
    withExtendedLifetime(token) {}
  }

  @Test("payloads a handler started on are handed over, and not held again")
  func startedPayloadsStayHandedOver() {
    let (event, queue) = Self.heldOnSuspendedQueue()
    let first = Recorder<Int>()
    let token = event.subscribe { first.record($0) }
    queue.resume()
    #expect(drain(queue))
    token.cancel()
    #expect(first.values == [1, 2, 3])
    #expect(event.latest == nil)
    #expect(Self.handedOver(event, queue: queue).isEmpty)
  }
}
