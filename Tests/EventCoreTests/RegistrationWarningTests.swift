import EventTestSupport
import Testing

@testable import EventCore

/// An observer held weakly, which a test lets die.
private final class Screen: Sendable {}

/// Registers a token-held closure written at `fileID`:`line`.
private func subscribe(
  _ list: ObserverList<Int>, fileID: StaticString, line: UInt
) -> Subscription {
  let entry = ObserverEntry<Int>(delivery: .synchronous) { _ in }
  entry.site = RegistrationSite(.closure, fileID: fileID, line: line)
  return list.subscribe(entry, endsWithToken: true)
}

/// Registers `count` token-held closures written at `fileID`:`line`.
private func subscribe(
  _ list: ObserverList<Int>, _ count: Int, fileID: StaticString, line: UInt
) -> [Subscription] {
  (0..<count).map { _ in subscribe(list, fileID: fileID, line: line) }
}

/// A list whose warning fires above `threshold` and is recorded, not printed.
private func list(warningAbove threshold: Int?) -> (ObserverList<Int>, Recorder<String>) {
  let list = ObserverList<Int>()
  let printed = Recorder<String>()
  list.warnOfRegistrations(above: threshold) { printed.record($0) }
  return (list, printed)
}

@Suite("Registration warning")
struct RegistrationWarningTests {
  @Test("crossing the threshold writes one line: the channel and its three busiest sites")
  func crossingWritesOneLine() {
    let (list, printed) = list(warningAbove: 10)
    list.nameChannel { "the test's channel" }
    // Registered in an order unlike their counts, which decide the order of the line.
    var tokens = subscribe(list, 1, fileID: "App/Log.swift", line: 3)
    tokens += subscribe(list, 2, fileID: "App/Cell.swift", line: 7)
    tokens += subscribe(list, 5, fileID: "App/Screen.swift", line: 42)
    tokens += subscribe(list, 2, fileID: "App/Badge.swift", line: 9)
    #expect(printed.values.isEmpty)
    tokens += subscribe(list, 1, fileID: "App/Screen.swift", line: 42)
    #expect(
      printed.values == [
        "Events: the test's channel has 11 live registrations "
          + "(EventDiagnostics.registrationWarning is 10); most were registered at "
          + "App/Screen.swift:42 (6), App/Badge.swift:9 (2), App/Cell.swift:7 (2). "
          + "This is printed once per channel.\n"
      ])
    withExtendedLifetime(tokens) {}
  }

  @Test("a channel crossing again, after falling below, writes nothing more")
  func crossingAgainWritesNothing() {
    let (list, printed) = list(warningAbove: 3)
    var tokens = subscribe(list, 4, fileID: "App/Screen.swift", line: 1)
    tokens += subscribe(list, 4, fileID: "App/Screen.swift", line: 1)
    #expect(printed.count == 1)
    for token in tokens.prefix(6) { token.cancel() }
    tokens += subscribe(list, 6, fileID: "App/Screen.swift", line: 1)
    #expect(printed.count == 1)
    withExtendedLifetime(tokens) {}
  }

  @Test("as many registrations as the threshold write nothing")
  func atThresholdNothing() {
    let (list, printed) = list(warningAbove: 8)
    let tokens = subscribe(list, 8, fileID: "App/Screen.swift", line: 1)
    #expect(printed.values.isEmpty)
    withExtendedLifetime(tokens) {}
  }

  @Test("a threshold of nil never writes")
  func nilNever() {
    let (list, printed) = list(warningAbove: nil)
    let tokens = subscribe(list, 100, fileID: "App/Screen.swift", line: 1)
    #expect(printed.values.isEmpty)
    withExtendedLifetime(tokens) {}
  }

  @Test("a threshold of 0 warns of the first registration")
  func zeroWarnsOfTheFirst() {
    let (list, printed) = list(warningAbove: 0)
    let token = subscribe(list, fileID: "App/Screen.swift", line: 5)
    #expect(printed.values.count == 1)
    #expect(printed.values.first?.contains("has 1 live registrations") == true)
    withExtendedLifetime(token) {}
  }

  @Test("an unnamed list is named after its payload type, as an Event's list is")
  func unnamedIsAnEvent() {
    let (list, printed) = list(warningAbove: 1)
    let tokens = subscribe(list, 2, fileID: "App/Screen.swift", line: 1)
    #expect(printed.values.first?.hasPrefix("Events: Event<Int> has 2 live registrations") == true)
    withExtendedLifetime(tokens) {}
  }

  @Test("registrations the package made are counted under one name")
  func madeByThePackage() {
    let (list, printed) = list(warningAbove: 2)
    var tokens = subscribe(list, 1, fileID: "App/Screen.swift", line: 1)
    for _ in 0..<2 {
      let entry = ObserverEntry<Int>(delivery: .synchronous) { _ in }
      entry.site = .madeByThePackage
      tokens.append(list.subscribe(entry, endsWithToken: true))
    }
    #expect(
      printed.values.first?.contains(
        "most were registered at (made by the package) (2), App/Screen.swift:1 (1).") == true)
    withExtendedLifetime(tokens) {}
  }

  @Test("observers that died do not count: the warning waits for live ones")
  func deadObserversDoNotCount() {
    let (list, printed) = list(warningAbove: 3)
    do {
      let screens = (0..<3).map { _ in Screen() }
      for screen in screens {
        let entry = ObserverEntry<Int>(observer: screen, keyed: true, delivery: .synchronous) {
          _, _ in
        }
        _ = list.subscribe(entry, endsWithToken: false)
      }
    }
    // 4 in the list's count, 1 of them live: nothing, and the dead are purged.
    var tokens = subscribe(list, 1, fileID: "App/Screen.swift", line: 1)
    #expect(printed.values.isEmpty)
    #expect(list.registeredCount == 1)
    tokens += subscribe(list, 3, fileID: "App/Screen.swift", line: 1)
    #expect(printed.values.count == 1)
    #expect(printed.values.first?.contains("has 4 live registrations") == true)
    withExtendedLifetime(tokens) {}
  }

  @Test("registrationWarning round-trips nil and a value")
  func globalRoundTrips() {
    // Raised, never lowered: a lower threshold would make the lists of the tests running
    // beside this one print.
    let saved = EventDiagnostics.registrationWarning
    defer { EventDiagnostics.registrationWarning = saved }
    EventDiagnostics.registrationWarning = nil
    #expect(EventDiagnostics.registrationWarning == nil)
    EventDiagnostics.registrationWarning = 1_000_000
    #expect(EventDiagnostics.registrationWarning == 1_000_000)
  }

  @Test("registrationWarning is 10,000 by default; above it a channel prints to standard error")
  func globalPrintsToStandardError() async {
    // In a process of its own, where lowering the process-wide threshold races with no test.
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      precondition(EventDiagnostics.registrationWarning == 10_000)
      EventDiagnostics.registrationWarning = 2
      let list = ObserverList<Int>()
      let tokens = (0..<3).map { _ in
        let entry = ObserverEntry<Int>(delivery: .synchronous) { _ in }
        entry.site = RegistrationSite(.closure, fileID: "App/Screen.swift", line: 42)
        return list.subscribe(entry, endsWithToken: true)
      }
      withExtendedLifetime(tokens) {}
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "Events: Event<Int> has 3 live registrations (EventDiagnostics.registrationWarning is 2); "
          + "most were registered at App/Screen.swift:42 (3). This is printed once per channel.\n"
      ))
  }

  @Test("a negative registrationWarning stops the program with a message naming the mistake")
  func negativeIsAnError() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      EventDiagnostics.registrationWarning = -1
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("EventDiagnostics: a threshold must be 0 or more, or nil for never"))
  }
}
