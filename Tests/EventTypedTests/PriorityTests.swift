import EventTestSupport
import EventTyped
import Testing

private final class RankedScreen: Sendable {
  let name: String
  let log: Recorder<String>

  init(_ name: String, log: Recorder<String>) {
    self.name = name
    self.log = log
  }

  func show(_ value: Int) { log.record(name) }
}

private enum RankedType {}

@Suite("Event: priorities")
struct PriorityTests {
  @Test("higher priorities run first, equal ones in registration order")
  func higherFirst() {
    let event = Event<Int>()
    let log = Recorder<String>()
    let tokens = [
      event.subscribe(priority: -5) { _ in log.record("low") },
      event.subscribe { _ in log.record("default") },
      event.subscribe(priority: 10) { _ in log.record("high") },
      event.subscribe(priority: 10) { _ in log.record("high too") },
    ]
    event.post(1)
    #expect(log.values == ["high", "high too", "default", "low"])
    withExtendedLifetime(tokens) {}
  }

  @Test("every registration form takes a priority")
  func everyForm() {
    let event = Event<Int>()
    let log = Recorder<String>()
    let method = RankedScreen("method", log: log)
    let closure = RankedScreen("closure", log: log)
    event.register(method, priority: 1, function: RankedScreen.show)
    event.register(closure, priority: 2) { screen, value in screen.show(value) }
    event.register(RankedType.self, priority: 4) { (_: Int) in log.record("type") }
    event.subscribeOnce(priority: 5) { _ in log.record("once") }
    event.post(1)
    #expect(log.values == ["once", "type", "closure", "method"])
    withExtendedLifetime((method, closure)) {}
  }

  @Test("re-registering an observer moves it to the end of its priority")
  func reRegistering() {
    let event = Event<Int>()
    let log = Recorder<String>()
    let screens = ["a", "b", "c"].map { RankedScreen($0, log: log) }
    for screen in screens { event.register(screen, priority: 1, function: RankedScreen.show) }
    event.register(screens[0], priority: 1, function: RankedScreen.show)
    let token = event.subscribe { _ in log.record("default") }
    event.post(1)
    #expect(log.values == ["b", "c", "a", "default"])
    withExtendedLifetime((screens, token)) {}
  }
}
