import EventTestSupport
import EventTesting
import EventTyped
import Foundation
import Testing

@Suite("Event initial value and retained payloads")
struct EventRetainedTests {
  @Test("an initial value is retained, replayed to every registration, and posted to nobody")
  func initialValue() {
    let theme = Event<String>(replay: .latest, initial: "light")
    #expect(theme.latest == "light")
    #expect(theme.retained == ["light"])
    let first = Recorder<String>()
    let second = Recorder<String>()
    let tokens = [theme.subscribe { first.record($0) }, theme.subscribe { second.record($0) }]
    #expect(first.values == ["light"])
    #expect(second.values == ["light"])
    theme.post("dark")
    #expect(theme.retained == ["dark"])
    #expect(first.values == ["light", "dark"])
    withExtendedLifetime(tokens) {}
  }

  @Test("with .last(n), later posts push the initial value out oldest first")
  func initialWithLast() {
    let history = Event<Int>(replay: .last(2), initial: 0)
    history.post(1)
    #expect(history.retained == [0, 1])
    history.post(2)
    #expect(history.retained == [1, 2])
  }

  @Test("with .untilObserved the initial value is held for the first registration only")
  func initialUntilObserved() {
    let inbox = Event<Int>(replay: .untilObserved, initial: 0)
    inbox.post(1)
    #expect(inbox.retained == [0, 1])
    let log = Recorder<Int>()
    let token = inbox.subscribe { log.record($0) }
    #expect(log.values == [0, 1])
    #expect(inbox.retained.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test("an initial value with a delivery is replayed through that delivery")
  func initialWithDelivery() async {
    let queue = DispatchQueue(label: "initial")
    queue.suspend()
    let event = Event<Int>(delivery: .queue(queue), replay: .latest, initial: 5)
    let log = DeliveryLog<Int>()
    let token = event.subscribe { log.record($0) }
    #expect(log.count == 0, "replayed on the queue, not on the registering thread")
    queue.resume()
    await log.expect([5])
    withExtendedLifetime(token) {}
  }

  @Test("retained lists what the event keeps, oldest first, and is empty without a replay")
  func retained() {
    let none = Event<Int>()
    none.post(1)
    #expect(none.retained.isEmpty)
    let last = Event<Int>(replay: .last(3))
    for value in 1...5 { last.post(value) }
    #expect(last.retained == [3, 4, 5])
    last.clearReplay()
    #expect(last.retained.isEmpty)
  }

  @Test("an initial value with Replay.none stops the program with a message saying why")
  func initialWithoutReplayIsAnError() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Event<Int>(replay: .none, initial: 1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("an event that retains nothing cannot start with a value"))
  }
}
