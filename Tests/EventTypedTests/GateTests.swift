import EventTestSupport
import EventTyped
import Testing

@Suite("Gate")
struct GateTests {
  @Test("a closed gate holds posts and delivers them in order, once, when it opens")
  func holdsUntilOpen() {
    let log = Recorder<String>()
    let event = Event<String>()
    let token = event.subscribe { log.record($0) }
    let gate = Gate()
    #expect(!gate.isOpen)

    event.post("a", when: gate)
    event.post("b", when: gate)
    #expect(log.values.isEmpty)

    gate.open()
    #expect(gate.isOpen)
    #expect(log.values == ["a", "b"])

    gate.open()
    #expect(log.values == ["a", "b"])
    token.cancel()
  }

  @Test("an open gate delivers at once")
  func openDeliversAtOnce() {
    let log = Recorder<String>()
    let event = Event<String>()
    let token = event.subscribe { log.record($0) }
    let gate = Gate(isOpen: true)

    event.post("now", when: gate)

    #expect(log.values == ["now"])
    token.cancel()
  }

  @Test("closing the gate again holds later posts")
  func closeHoldsAgain() {
    let log = Recorder<String>()
    let event = Event<String>()
    let token = event.subscribe { log.record($0) }
    let gate = Gate(isOpen: true)

    gate.close()
    event.post("held", when: gate)
    #expect(log.values.isEmpty)
    gate.open()
    #expect(log.values == ["held"])
    token.cancel()
  }

  @Test("one gate releases the posts of several events in post order")
  func acrossEvents() {
    let log = Recorder<String>()
    let names = Event<String>()
    let numbers = Event<Int>()
    let pairs = Event<(String, Int)>()
    let ticks = Event<Void>()
    let tokens = [
      names.subscribe { log.record("name \($0)") },
      numbers.subscribe { log.record("number \($0)") },
      pairs.subscribe { log.record("pair \($0.0)\($0.1)") },
      ticks.subscribe { log.record("tick") },
    ]
    let gate = Gate()

    numbers.post(1, when: gate)
    names.post("a", when: gate)
    pairs.post("p", 2, when: gate)
    ticks.post(when: gate)
    numbers.post(3, when: gate)
    gate.open()

    #expect(log.values == ["number 1", "name a", "pair p2", "tick", "number 3"])
    for token in tokens { token.cancel() }
  }

  @Test("a held post reaches the registrations present when the gate opens")
  func registrationsAtOpen() {
    let log = Recorder<String>()
    let event = Event<String>()
    let gate = Gate()
    let early = event.subscribe { log.record("early \($0)") }
    event.post("x", when: gate)
    early.cancel()
    let late = event.subscribe { log.record("late \($0)") }

    gate.open()

    #expect(log.values == ["late x"])
    late.cancel()
  }

  @Test("a post made by a handler during the release is delivered after the held ones")
  func postDuringRelease() {
    let log = Recorder<String>()
    let event = Event<String>()
    let gate = Gate()
    let token = event.subscribe { text in
      log.record(text)
      if text == "first" { event.post("from handler", when: gate) }
    }
    event.post("first", when: gate)
    event.post("second", when: gate)

    gate.open()

    #expect(log.values == ["first", "second", "from handler"])
    token.cancel()
  }

  @Test("closing the gate from a handler holds the rest until the next open")
  func closeDuringRelease() {
    let log = Recorder<String>()
    let event = Event<String>()
    let gate = Gate()
    let token = event.subscribe { text in
      log.record(text)
      if text == "first" { gate.close() }
    }
    event.post("first", when: gate)
    event.post("second", when: gate)
    event.post("third", when: gate)

    gate.open()
    #expect(log.values == ["first"])
    #expect(!gate.isOpen)

    gate.open()
    #expect(log.values == ["first", "second", "third"])
    token.cancel()
  }

  @Test("a gate does not keep an event alive; the held post of a deallocated event is dropped")
  func deallocatedEvent() {
    let log = Recorder<String>()
    let survivor = Event<String>()
    let token = survivor.subscribe { log.record($0) }
    let gate = Gate()
    let observer = Tracked()
    weak var weakEvent: Event<String>?
    do {
      let event = Event<String>()
      weakEvent = event
      event.register(observer) { _, text in log.record("dropped \(text)") }
      event.post("lost", when: gate)
    }
    survivor.post("kept", when: gate)
    #expect(weakEvent == nil)

    gate.open()

    #expect(log.values == ["kept"])
    token.cancel()
  }

  @Test("held posts keep the event's delivery")
  func heldPostsKeepDelivery() throws {
    let queue = DispatchQueue(label: "gate delivery")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 3)
    let onQueue = Recorder<Bool>()
    let event = Event<Int>(delivery: .queue(queue))
    let token = event.subscribe { _ in onQueue.record(DispatchQueue.getSpecific(key: key) == 3) }
    let gate = Gate()

    event.post(1, when: gate)
    gate.open()
    try #require(drain(queue))

    #expect(onQueue.values == [true])
    token.cancel()
  }
}
