import EventRAII
import EventTestSupport
import Foundation
import Testing

extension Notification.Name {
  fileprivate static let didSave = Notification.Name("didSave")
}

/// A sender for the observations that filter by one.
private final class Document: Sendable {}

/// Observes `name` on `center` `count` times, from `object` if it is not `nil`, written at
/// `fileID`:`line`.
private func observe(
  _ center: NotificationCenter, _ name: Notification.Name?, object: AnyObject? = nil,
  _ count: Int, fileID: StaticString, line: UInt
) -> [Subscription] {
  (0..<count).map { _ in
    center.observe(name, object: object, { _ in }, fileID: fileID, line: line)
  }
}

/// A center whose channel of `name` warns above `threshold`, recorded, not printed; the
/// channel is kept by the one observation returned.
private func center(
  _ name: Notification.Name?, warningAbove threshold: Int?
) -> (NotificationCenter, Recorder<String>, Subscription) {
  let center = NotificationCenter()
  let printed = Recorder<String>()
  let first = center.observe(name, { _ in }, fileID: "App/Sync.swift", line: 1)
  center.warnOfRegistrations(named: name, above: threshold) { printed.record($0) }
  return (center, printed, first)
}

@Suite("Registration warning of notification centers")
struct RegistrationWarningTests {
  @Test("a name crossing the threshold writes one line naming it and its three busiest sites")
  func crossing() {
    let (center, printed, first) = center(.didSave, warningAbove: 7)
    var tokens = observe(center, .didSave, 2, fileID: "App/Editor.swift", line: 12)
    tokens += observe(center, .didSave, 4, fileID: "App/Window.swift", line: 30)
    // Another name is another channel.
    tokens += observe(center, nil, 9, fileID: "App/Log.swift", line: 2)
    #expect(printed.values.isEmpty)
    tokens += observe(center, .didSave, 1, fileID: "App/Editor.swift", line: 12)
    #expect(
      printed.values == [
        "Events: NotificationCenter name didSave has 8 live registrations "
          + "(EventDiagnostics.registrationWarning is 7); most were registered at "
          + "App/Window.swift:30 (4), App/Editor.swift:12 (3), App/Sync.swift:1 (1). "
          + "This is printed once per channel.\n"
      ])
    withExtendedLifetime((first, tokens)) {}
  }

  @Test("the observers of one sender are a channel of their own, named with the sender's type")
  func senderGroup() {
    let document = Document()
    let center = NotificationCenter()
    let printed = Recorder<String>()
    // The group is made by its first observation.
    var tokens = observe(center, .didSave, object: document, 1, fileID: "App/Pane.swift", line: 4)
    center.warnOfRegistrations(named: .didSave, above: 2) { printed.record($0) }
    tokens += observe(center, .didSave, object: document, 2, fileID: "App/Pane.swift", line: 4)
    #expect(
      printed.values == [
        "Events: NotificationCenter name didSave object Document has 3 live registrations "
          + "(EventDiagnostics.registrationWarning is 2); most were registered at "
          + "App/Pane.swift:4 (3). This is printed once per channel.\n"
      ])
    withExtendedLifetime(tokens) {}
  }

  @Test("a name that falls below the threshold and crosses it again writes nothing more")
  func crossingAgain() {
    let (center, printed, first) = center(.didSave, warningAbove: 2)
    var tokens = observe(center, .didSave, 2, fileID: "App/Editor.swift", line: 12)
    #expect(printed.count == 1)
    for token in tokens { token.cancel() }
    tokens = observe(center, .didSave, 4, fileID: "App/Editor.swift", line: 12)
    #expect(printed.count == 1)
    withExtendedLifetime((first, tokens)) {}
  }

  @Test("a name with as many observations as the threshold writes nothing")
  func atThreshold() {
    let (center, printed, first) = center(.didSave, warningAbove: 5)
    let tokens = observe(center, .didSave, 4, fileID: "App/Editor.swift", line: 12)
    #expect(printed.values.isEmpty)
    withExtendedLifetime((first, tokens)) {}
  }

  @Test("the channel of every name, with a threshold of nil, never writes")
  func nilNever() {
    let (center, printed, first) = center(nil, warningAbove: nil)
    let tokens = observe(center, nil, 30, fileID: "App/Log.swift", line: 2)
    #expect(printed.values.isEmpty)
    withExtendedLifetime((first, tokens)) {}
  }
}
