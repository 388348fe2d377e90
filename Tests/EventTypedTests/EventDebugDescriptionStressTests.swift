import EventTestSupport
import EventTyped
import Testing

private final class ChangingObserver: Sendable {}

@Suite("Event: String(reflecting:) while other threads register, post and cancel: Stress")
struct EventDebugDescriptionStressTests {
  @Test("an event's description is always whole while its registrations change")
  func eventDescription() {
    let event = Event<Int>()
    let kept = event.subscribe(priority: 1) { _ in }
    let wellFormed = Recorder<Bool>()
    let finished = runThreads(
      [
        {
          let screen = ChangingObserver()
          event.register(screen) { _, _ in }
          let token = event.subscribe { _ in }
          event.post(1)
          token.cancel()
        },
        { event.post(2) },
        {
          let lines = String(reflecting: event).split(separator: "\n")
          let kept = lines.contains { $0.hasPrefix("  closure, synchronous, priority 1, ") }
          wellFormed.record(lines[0].hasPrefix("Event<Int>, ") && kept)
        },
      ], seconds: 0.3)
    #expect(finished)
    #expect(!wellFormed.values.isEmpty && !wellFormed.values.contains(false))
    withExtendedLifetime(kept) {}
  }
}
