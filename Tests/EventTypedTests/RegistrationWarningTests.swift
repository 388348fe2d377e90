import EventTestSupport
import EventTyped
import Testing

/// A keyed event's payload, named in the line.
private struct Reply: Sendable {}

/// Registers `count` closures on `event`, written at `fileID`:`line`.
private func subscribe(
  _ event: Event<String>, _ count: Int, fileID: StaticString, line: UInt
) -> [Subscription] {
  (0..<count).map { _ in event.subscribe({ _ in }, fileID: fileID, line: line) }
}

/// Registers `count` closures on `channel`, written at `fileID`:`line`.
private func subscribe(
  _ channel: KeyedEvent<Int, Reply>.Channel, _ count: Int, fileID: StaticString, line: UInt
) -> [Subscription] {
  (0..<count).map { _ in channel.subscribe({ _ in }, fileID: fileID, line: line) }
}

/// An event whose warning fires above `threshold` and is recorded, not printed.
private func event(warningAbove threshold: Int?) -> (Event<String>, Recorder<String>) {
  let event = Event<String>()
  let printed = Recorder<String>()
  event.warnOfRegistrations(above: threshold) { printed.record($0) }
  return (event, printed)
}

@Suite("Registration warning of events")
struct RegistrationWarningTests {
  @Test("an event crossing the threshold writes one line naming it and its three busiest sites")
  func eventCrossing() {
    let (event, printed) = event(warningAbove: 10)
    var tokens = subscribe(event, 1, fileID: "App/Log.swift", line: 3)
    tokens += subscribe(event, 1, fileID: "App/Badge.swift", line: 8)
    tokens += subscribe(event, 3, fileID: "App/Cell.swift", line: 7)
    tokens += subscribe(event, 5, fileID: "App/Screen.swift", line: 42)
    #expect(printed.values.isEmpty)
    tokens += subscribe(event, 1, fileID: "App/Screen.swift", line: 42)
    #expect(
      printed.values == [
        "Events: Event<String> has 11 live registrations "
          + "(EventDiagnostics.registrationWarning is 10); most were registered at "
          + "App/Screen.swift:42 (6), App/Cell.swift:7 (3), App/Badge.swift:8 (1). "
          + "This is printed once per channel.\n"
      ])
    withExtendedLifetime(tokens) {}
  }

  @Test("an event that falls below the threshold and crosses it again writes nothing more")
  func eventCrossingAgain() {
    let (event, printed) = event(warningAbove: 4)
    var tokens = subscribe(event, 5, fileID: "App/Screen.swift", line: 1)
    #expect(printed.count == 1)
    for token in tokens { token.cancel() }
    tokens = subscribe(event, 9, fileID: "App/Screen.swift", line: 1)
    #expect(printed.count == 1)
    withExtendedLifetime(tokens) {}
  }

  @Test("an event with as many registrations as the threshold writes nothing")
  func eventAtThreshold() {
    let (event, printed) = event(warningAbove: 6)
    let tokens = subscribe(event, 6, fileID: "App/Screen.swift", line: 1)
    #expect(printed.values.isEmpty)
    withExtendedLifetime(tokens) {}
  }

  @Test("an event whose threshold is nil never writes")
  func eventNil() {
    let (event, printed) = event(warningAbove: nil)
    let tokens = subscribe(event, 50, fileID: "App/Screen.swift", line: 1)
    #expect(printed.values.isEmpty)
    withExtendedLifetime(tokens) {}
  }

  @Test("a key crossing the threshold writes one line naming the keyed event and the key")
  func keyCrossing() {
    let keyed = KeyedEvent<Int, Reply>()
    let printed = Recorder<String>()
    // The key's list is made by its first registration.
    var tokens = subscribe(keyed[42], 1, fileID: "App/Server.swift", line: 10)
    keyed[42].warnOfRegistrations(above: 5) { printed.record($0) }
    // Registrations on another key are another channel's.
    tokens += subscribe(keyed[7], 9, fileID: "App/Other.swift", line: 1)
    tokens += subscribe(keyed[42], 3, fileID: "App/Request.swift", line: 20)
    tokens += subscribe(keyed[42], 1, fileID: "App/Log.swift", line: 5)
    #expect(printed.values.isEmpty)
    tokens += subscribe(keyed[42], 1, fileID: "App/Audit.swift", line: 2)
    #expect(
      printed.values == [
        "Events: KeyedEvent<Int, Reply> key 42 has 6 live registrations "
          + "(EventDiagnostics.registrationWarning is 5); most were registered at "
          + "App/Request.swift:20 (3), App/Audit.swift:2 (1), App/Log.swift:5 (1). "
          + "This is printed once per channel.\n"
      ])
    withExtendedLifetime(tokens) {}
  }

  @Test("a key that falls below the threshold and crosses it again writes nothing more")
  func keyCrossingAgain() {
    let keyed = KeyedEvent<Int, Reply>()
    let printed = Recorder<String>()
    // Held throughout, so that the key keeps its list (and its record of the warning).
    let first = keyed[42].subscribe({ _ in })
    keyed[42].warnOfRegistrations(above: 3) { printed.record($0) }
    var tokens = subscribe(keyed[42], 3, fileID: "App/Server.swift", line: 1)
    #expect(printed.count == 1)
    for token in tokens { token.cancel() }
    tokens = subscribe(keyed[42], 5, fileID: "App/Server.swift", line: 1)
    #expect(printed.count == 1)
    withExtendedLifetime((first, tokens)) {}
  }

  @Test("a key with as many registrations as the threshold writes nothing, nor one set to nil")
  func keyAtThresholdAndNil() {
    let keyed = KeyedEvent<Int, Reply>()
    let printed = Recorder<String>()
    var tokens = subscribe(keyed[1], 1, fileID: "App/Server.swift", line: 1)
    tokens += subscribe(keyed[2], 1, fileID: "App/Server.swift", line: 1)
    keyed[1].warnOfRegistrations(above: 4) { printed.record($0) }
    keyed[2].warnOfRegistrations(above: nil) { printed.record($0) }
    tokens += subscribe(keyed[1], 3, fileID: "App/Server.swift", line: 1)
    tokens += subscribe(keyed[2], 30, fileID: "App/Server.swift", line: 1)
    #expect(printed.values.isEmpty)
    withExtendedLifetime(tokens) {}
  }
}
