import EventTestSupport
import EventTyped
import Foundation
import Testing

/// An observer for the `register` forms.
private final class Screen: Sendable {
  let log: Recorder<String>
  init(_ log: Recorder<String>) { self.log = log }
  func show(_ value: String) { log.record("show \(value)") }
}

@Suite("Replay")
struct ReplayTests {
  @Test("without a replay a registration receives only later posts, and latest is nil")
  func noReplay() {
    let event = Event<Int>()
    event.post(1)
    let log = Recorder<Int>()
    let token = event.subscribe { log.record($0) }
    event.post(2)
    #expect(log.values == [2])
    #expect(event.latest == nil)
    #expect(event.replay == .none)
    withExtendedLifetime(token) {}
  }

  @Test("latest: a late subscriber receives the newest payload before subscribe returns")
  func latest() {
    let event = Event<String>(replay: .latest)
    #expect(event.latest == nil)
    event.post("a")
    event.post("b")
    #expect(event.latest == "b")
    let log = Recorder<String>()
    let token = event.subscribe { log.record($0) }
    #expect(log.values == ["b"])
    event.post("c")
    #expect(log.values == ["b", "c"])
    #expect(event.latest == "c")
    withExtendedLifetime(token) {}
  }

  @Test("last(n) replays the newest n payloads, oldest first")
  func lastN() {
    let event = Event<Int>(replay: .last(3))
    for value in 1...5 { event.post(value) }
    let log = Recorder<Int>()
    let token = event.subscribe { log.record($0) }
    #expect(log.values == [3, 4, 5])
    withExtendedLifetime(token) {}
  }

  @Test("replay reaches every registration form, each through its own registration")
  func everyForm() async {
    let event = Event<String>(replay: .latest)
    event.post("x")
    let log = Recorder<String>()
    let screen = Screen(log)
    event.register(screen, function: Screen.show)
    event.register(screen) { screen, value in screen.log.record("handler \(value)") }
    event.register(ReplayTests.self) { (value: String) in log.record("type \(value)") }
    let token = event.subscribe { log.record("subscribe \($0)") }
    event.subscribeOnce { log.record("once \($0)") }
    #expect(
      log.values == ["show x", "handler x", "type x", "subscribe x", "once x"],
      "the second register of `screen` replaces the first, and replays again")
    var iterator = event.values.makeAsyncIterator()
    #expect(await iterator.next() == "x")
    let delivered = Signal()
    let asynchronous = event.subscribe { value async in
      log.record("async \(value)")
      delivered.fire()
    }
    #expect(await delivered.arrival())
    #expect(log.values.last == "async x")
    withExtendedLifetime((token, asynchronous)) {}
    event.unregister(ReplayTests.self)
  }

  @Test("replay goes through the registration's delivery: a queue event replays on its queue")
  func replayOnQueue() {
    let queue = DispatchQueue(label: "replay")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let event = Event<Int>(delivery: .queue(queue), replay: .last(2))
    event.post(1)
    event.post(2)
    let log = Recorder<String>()
    let token = event.subscribe { value in
      log.record("\(value) on queue: \(DispatchQueue.getSpecific(key: key) == true)")
    }
    event.post(3)
    #expect(drain(queue))
    #expect(log.values == ["1 on queue: true", "2 on queue: true", "3 on queue: true"])
    withExtendedLifetime(token) {}
  }

  @Test("clearReplay drops what is retained")
  func clear() {
    let event = Event<Int>(replay: .last(2))
    event.post(1)
    event.clearReplay()
    #expect(event.latest == nil)
    let log = Recorder<Int>()
    let token = event.subscribe { log.record($0) }
    #expect(log.values.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test("untilObserved holds posts while nobody listens, hands them all to the first registration")
  func untilObserved() {
    let event = Event<Int>(replay: .untilObserved)
    event.post(1)
    event.post(2)
    #expect(event.latest == 2)
    let first = Recorder<Int>()
    var token: Subscription? = event.subscribe { first.record($0) }
    #expect(first.values == [1, 2])
    #expect(event.latest == nil, "handed over")
    event.post(3)
    #expect(first.values == [1, 2, 3])
    let second = Recorder<Int>()
    let other = event.subscribe { second.record($0) }
    #expect(second.values.isEmpty, "nothing is held while a registration lives")
    other.cancel()
    token = nil
    event.post(4)
    #expect(event.latest == 4, "held again once nobody listens")
    let third = Recorder<Int>()
    token = event.subscribe { third.record($0) }
    #expect(third.values == [4])
    #expect(first.values == [1, 2, 3])
    withExtendedLifetime(token) {}
  }

  @Test("untilObserved: a post whose only observer died is held, not lost")
  func untilObservedDeadObserver() {
    let event = Event<String>(replay: .untilObserved)
    let log = Recorder<String>()
    var screen: Screen? = Screen(log)
    event.register(screen!, function: Screen.show)
    screen = nil
    event.post("kept")
    let later = Recorder<String>()
    let token = event.subscribe { later.record($0) }
    #expect(later.values == ["kept"])
    withExtendedLifetime(token) {}
  }

  @Test("untilObserved: a first subscribeOnce takes only the oldest held payload")
  func untilObservedOnce() {
    let event = Event<Int>(replay: .untilObserved)
    event.post(1)
    event.post(2)
    let once = Recorder<Int>()
    let token = event.subscribeOnce { once.record($0) }
    #expect(once.values == [1])
    #expect(token.isCancelled)
    #expect(event.latest == 2)
    let rest = Recorder<Int>()
    let next = event.subscribe { rest.record($0) }
    #expect(rest.values == [2])
    withExtendedLifetime(next) {}
  }

  @Test("posts held by a gate count as posted when the gate releases them")
  func gateReleasesIntoReplay() {
    let event = Event<Int>(replay: .latest)
    let gate = Gate()
    event.post(1, when: gate)
    #expect(event.latest == nil)
    gate.open()
    #expect(event.latest == 1)
  }

  @Test("Replay.last(0) stops the program with a message naming the mistake")
  func lastZeroIsAnError() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Replay.last(0)
    }
  }

  @Test("Replay.last with a negative count stops the program")
  func lastNegativeIsAnError() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Replay.last(-2)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Replay.last(-2): the count must be at least 1"))
  }
}
