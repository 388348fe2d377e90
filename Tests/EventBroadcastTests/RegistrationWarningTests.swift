import EventBroadcast
import EventTestSupport
import Testing

/// The protocol whose channel the tests fill.
private protocol ThemeObserver {
  func apply(theme: String)
}

/// One observer per registration: a broadcaster registers an observer once per protocol.
private final class Themed: ThemeObserver, Sendable {
  func apply(theme: String) {}
}

/// Registers `count` new observers of `ThemeObserver`, written at `fileID`:`line`; the
/// observers are returned with their tokens, which the caller keeps (the broadcaster holds
/// observers weakly).
private func register(
  _ hub: Broadcaster, _ count: Int, fileID: StaticString, line: UInt
) -> [(Themed, Subscription)] {
  (0..<count).map { _ in
    let observer = Themed()
    let token = hub.register(
      (any ThemeObserver).self, observer: observer, fileID: fileID, line: line)
    return (observer, token)
  }
}

/// A broadcaster whose `ThemeObserver` channel warns above `threshold`, recorded, not printed;
/// made by the one registration returned.
private func broadcaster(
  warningAbove threshold: Int?
) -> (Broadcaster, Recorder<String>, [(Themed, Subscription)]) {
  let hub = Broadcaster()
  let printed = Recorder<String>()
  let first = register(hub, 1, fileID: "App/Theme.swift", line: 1)
  hub.warnOfRegistrations(for: (any ThemeObserver).self, above: threshold) {
    printed.record($0)
  }
  return (hub, printed, first)
}

@Suite("Registration warning of broadcasters")
struct RegistrationWarningTests {
  @Test("a protocol crossing the threshold writes one line naming it and its three busiest sites")
  func crossing() {
    let (hub, printed, first) = broadcaster(warningAbove: 8)
    var observers = first
    observers += register(hub, 4, fileID: "App/Cell.swift", line: 7)
    observers += register(hub, 2, fileID: "App/Screen.swift", line: 42)
    observers += register(hub, 1, fileID: "App/Badge.swift", line: 3)
    #expect(printed.values.isEmpty)
    observers += register(hub, 1, fileID: "App/Screen.swift", line: 42)
    #expect(
      printed.values == [
        "Events: Broadcaster protocol ThemeObserver has 9 live registrations "
          + "(EventDiagnostics.registrationWarning is 8); most were registered at "
          + "App/Cell.swift:7 (4), App/Screen.swift:42 (3), App/Badge.swift:3 (1). "
          + "This is printed once per channel.\n"
      ])
    withExtendedLifetime(observers) {}
  }

  @Test("a protocol that falls below the threshold and crosses it again writes nothing more")
  func crossingAgain() {
    let (hub, printed, first) = broadcaster(warningAbove: 3)
    var observers = register(hub, 3, fileID: "App/Cell.swift", line: 7)
    #expect(printed.count == 1)
    for (_, token) in observers { token.cancel() }
    observers = register(hub, 5, fileID: "App/Cell.swift", line: 7)
    #expect(printed.count == 1)
    withExtendedLifetime((first, observers)) {}
  }

  @Test("a protocol with as many registrations as the threshold writes nothing")
  func atThreshold() {
    let (hub, printed, first) = broadcaster(warningAbove: 5)
    let observers = register(hub, 4, fileID: "App/Cell.swift", line: 7)
    #expect(printed.values.isEmpty)
    withExtendedLifetime((first, observers)) {}
  }

  @Test("a protocol whose threshold is nil never writes")
  func nilNever() {
    let (hub, printed, first) = broadcaster(warningAbove: nil)
    let observers = register(hub, 40, fileID: "App/Cell.swift", line: 7)
    #expect(printed.values.isEmpty)
    withExtendedLifetime((first, observers)) {}
  }

  @Test("observers released without unregistering do not count")
  func releasedObserversDoNotCount() {
    let (hub, printed, first) = broadcaster(warningAbove: 4)
    _ = register(hub, 3, fileID: "App/Gone.swift", line: 1)
    // Up to 7 in the channel's count (fewer where a new observer reuses a dead one's address
    // and replaces its registration), never more than 4 of them live: nothing.
    var observers = register(hub, 3, fileID: "App/Cell.swift", line: 7)
    #expect(printed.values.isEmpty)
    observers += register(hub, 1, fileID: "App/Cell.swift", line: 7)
    #expect(printed.values.count == 1)
    #expect(printed.values.first?.contains("has 5 live registrations") == true)
    #expect(printed.values.first?.contains("App/Gone.swift") == false)
    withExtendedLifetime((first, observers)) {}
  }
}
