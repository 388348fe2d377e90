import EventTestSupport
import EventTyped
import Testing

/// An observer whose handler may keep running while the test ends its registration.
private final class Screen: Sendable {}

/// The ways an `Event` registration ends that used to wait for a running handler.
enum EventEnding: String, CaseIterable, Sendable {
  case unregister, unregisterAll, reRegistration, subscriptionCancel
}

@Suite("Event teardown")
struct EventTeardownTests {
  @Test(
    "ending a registration returns while its handler runs on another thread",
    arguments: EventEnding.allCases)
  func endingDoesNotWait(_ ending: EventEnding) {
    let event = Event<Int>()
    let screen = Screen()
    let running = RunningHandler()
    let token = event.register(screen) { _, value in
      if value == 1 { running.run() }
    }
    let returned = returnsWhileHandlerRuns(running, post: { event.post(1) }) {
      switch ending {
      case .unregister: event.unregister(screen)
      case .unregisterAll: event.unregisterAll()
      case .reRegistration: event.register(screen) { _, _ in }
      case .subscriptionCancel: token.cancel()
      }
      _ = event.observerCount
    }
    #expect(returned, "\(ending) waited for the handler running on another thread")
  }

  @Test("observers that registered and died do not pile up on an event never posted to")
  func deadObserversDoNotPileUp() {
    let event = Event<Int>()
    let freed = Counter()
    for _ in 0..<10_000 {
      let captured = Tracked("captured") { freed.increment() }
      event.register(Screen()) { _, _ in withExtendedLifetime(captured) {} }
    }
    #expect(10_000 - freed.count <= 16, "dead registrations kept what their handlers captured")
  }
}
