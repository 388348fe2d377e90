import EventBroadcast
import EventTestSupport
import Testing

private protocol Ranked {
  func rank()
}

private final class RankedObserver: Ranked, Sendable {
  let name: String
  let log: Recorder<String>

  init(_ name: String, log: Recorder<String>) {
    self.name = name
    self.log = log
  }

  func rank() { log.record(name) }
}

@Suite("Broadcaster: priorities")
struct PriorityTests {
  @Test("higher priorities are called first, equal ones in registration order")
  func higherFirst() {
    let broadcaster = Broadcaster()
    let log = Recorder<String>()
    let observers = ["low", "high", "default", "high too"].map { RankedObserver($0, log: log) }
    broadcaster.register((any Ranked).self, observer: observers[0], priority: -1)
    broadcaster.register((any Ranked).self, observer: observers[1], priority: 10)
    broadcaster.register((any Ranked).self, observer: observers[2])
    broadcaster.register(
      (any Ranked).self, observer: observers[3], delivery: .synchronous, priority: 10)
    broadcaster.notify((any Ranked).self) { $0.rank() }
    #expect(log.values == ["high", "high too", "default", "low"])
    withExtendedLifetime(observers) {}
  }

  @Test("registering an observer again moves it to the end of its priority")
  func reRegistering() {
    let broadcaster = Broadcaster()
    let log = Recorder<String>()
    let observers = ["a", "b", "c"].map { RankedObserver($0, log: log) }
    for observer in observers {
      broadcaster.register((any Ranked).self, observer: observer, priority: 1)
    }
    broadcaster.register((any Ranked).self, observer: observers[0], priority: 1)
    broadcaster.notify((any Ranked).self) { $0.rank() }
    #expect(log.values == ["b", "c", "a"])
    withExtendedLifetime(observers) {}
  }

  @Test("the static forms take a priority too")
  func staticForms() {
    let log = Recorder<String>()
    let first = RankedObserver("first", log: log)
    let second = RankedObserver("second", log: log)
    let tokens = [
      Broadcaster.register((any Ranked).self, observer: first),
      Broadcaster.register(
        (any Ranked).self, observer: second, delivery: .synchronous, priority: 1),
    ]
    Broadcaster.notify((any Ranked).self) { $0.rank() }
    for token in tokens { token.cancel() }
    #expect(log.values == ["second", "first"])
    withExtendedLifetime((first, second)) {}
  }
}
