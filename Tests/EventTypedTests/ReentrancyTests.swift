import EventCore
import EventTestSupport
import EventTyped
import Testing

/// Three observers, the first of which corrects a negative value by posting again: the shape
/// of MetaMask/core#9840, where later observers received the stale payload last.
private func correctingObservers(_ event: Event<Int>, log: Recorder<String>) -> [Subscription] {
  [
    event.subscribe { value in
      log.record("a\(value)")
      if value < 0 { event.post(0) }
    },
    event.subscribe { log.record("b\($0)") },
    event.subscribe { log.record("c\($0)") },
  ]
}

private struct Failure: Error {}

@Suite("Reentrancy")
struct ReentrancyTests {
  @Test(
    "an event delivers nested posts at once by default: later observers see the newer payload first"
  )
  func immediateIsDepthFirst() {
    let event = Event<Int>()
    #expect(event.reentrancy == .immediate)
    let log = Recorder<String>()
    let tokens = correctingObservers(event, log: log)
    event.post(-1)
    #expect(log.values == ["a-1", "a0", "b0", "c0", "b-1", "c-1"])
    _ = tokens
  }

  @Test(
    "with .queued, a nested post waits until every observer has the outer one: one order for all")
  func queuedIsBreadthFirst() {
    let event = Event<Int>(reentrancy: .queued)
    #expect(event.reentrancy == .queued)
    let log = Recorder<String>()
    let tokens = correctingObservers(event, log: log)
    event.post(-1)
    #expect(log.values == ["a-1", "b-1", "c-1", "a0", "b0", "c0"])
    _ = tokens
  }

  @Test("a nested post returns before delivering, and the outer post returns after delivering it")
  func nestedPostReturnsAtOnce() {
    let event = Event<Int>(reentrancy: .queued)
    let log = Recorder<String>()
    let first = event.subscribe { value in
      log.record("got \(value)")
      guard value == 1 else { return }
      event.post(2)
      log.record("posted 2")
    }
    event.post(1)
    #expect(log.values == ["got 1", "posted 2", "got 2"])
    _ = first
  }

  @Test("posts nested in nested posts are drained in the order they were made, until none is left")
  func drainsUntilEmpty() {
    let event = Event<Int>(reentrancy: .queued)
    let log = Recorder<String>()
    let tokens = [
      event.subscribe { value in
        log.record("a\(value)")
        if value < 3 {
          event.post(value * 10 + 1)
          event.post(value * 10 + 2)
        }
      },
      event.subscribe { log.record("b\($0)") },
    ]
    event.post(1)
    #expect(
      log.values == [
        "a1", "b1", "a11", "b11", "a12", "b12",
      ])
    event.post(0)
    #expect(
      log.values.suffix(14) == [
        "a0", "b0", "a1", "b1", "a2", "b2", "a11", "b11", "a12", "b12", "a21", "b21", "a22", "b22",
      ])
    _ = tokens
  }

  @Test("a registration made during a post gets the queued posts; one cancelled during it does not")
  func registrationsDuringTheDrain() {
    let event = Event<Int>(reentrancy: .queued)
    let log = Recorder<String>()
    let late = Lock<Subscription?>(nil)
    let victim = Lock<Subscription?>(nil)
    let first = event.subscribe { value in
      log.record("a\(value)")
      guard value == 1 else { return }
      late.withLock { $0 = event.subscribe { log.record("late\($0)") } }
      victim.withLock { $0?.cancel() }
      event.post(2)
    }
    victim.withLock { $0 = event.subscribe { log.record("victim\($0)") } }
    event.post(1)
    #expect(log.values == ["a1", "a2", "late2"])
    _ = first
  }

  @Test(
    "a nested post of another queued event is that event's own, and posts back queue behind ours")
  func twoQueuedEvents() {
    let ping = Event<Int>(reentrancy: .queued)
    let pong = Event<Int>(reentrancy: .queued)
    let log = Recorder<String>()
    let tokens = [
      ping.subscribe { value in
        log.record("ping\(value)")
        if value == 1 { pong.post(1) }
      },
      ping.subscribe { log.record("ping-late\($0)") },
      pong.subscribe { value in
        log.record("pong\(value)")
        ping.post(2)
      },
      pong.subscribe { log.record("pong-late\($0)") },
    ]
    ping.post(1)
    #expect(log.values == ["ping1", "pong1", "pong-late1", "ping-late1", "ping2", "ping-late2"])
    _ = tokens
  }

  @Test("with a replay, queued posts are retained in the order they are delivered")
  func queuedWithReplay() {
    let event = Event<Int>(replay: .last(3), initial: 0, reentrancy: .queued)
    let log = Recorder<String>()
    let tokens = correctingObservers(event, log: log)
    #expect(log.values == ["a0", "b0", "c0"])
    event.post(-1)
    #expect(log.values.dropFirst(3) == ["a-1", "b-1", "c-1", "a0", "b0", "c0"])
    #expect(event.retained == [0, -1, 0])
    _ = tokens
  }

  @Test("a post through an open gate, from a handler, is queued like any other")
  func gatePostIsQueued() {
    let event = Event<Int>(reentrancy: .queued)
    let gate = Gate(isOpen: true)
    let log = Recorder<String>()
    let tokens = [
      event.subscribe { value in
        log.record("a\(value)")
        if value == 1 { event.post(2, when: gate) }
      },
      event.subscribe { log.record("b\($0)") },
    ]
    event.post(1)
    #expect(log.values == ["a1", "b1", "a2", "b2"])
    _ = tokens
  }

  @Test("an observer's method registered with function: sees the posts in one order too")
  func registeredObserversQueue() {
    let event = Event<Int>(reentrancy: .queued)
    let log = Recorder<String>()
    let listener = Corrector(event: event, log: log)
    event.register(listener, function: Corrector.receive)
    let later = event.subscribe { log.record("b\($0)") }
    event.post(-5)
    #expect(log.values == ["a-5", "b-5", "a0", "b0"])
    _ = (listener, later)
  }
}

private final class Corrector: Sendable {
  let event: Event<Int>
  let log: Recorder<String>

  init(event: Event<Int>, log: Recorder<String>) {
    self.event = event
    self.log = log
  }

  func receive(_ value: Int) {
    log.record("a\(value)")
    if value < 0 { event.post(0) }
  }
}
