import EventTesting
import Foundation
import Testing

@Suite("NotificationRecorder")
struct NotificationRecorderTests {
  static let themeDidChange = Notification.Name("ThemeDidChange")

  @Test("records the notifications of one name, synchronously, and next reads them in order")
  func records() async throws {
    let center = NotificationCenter()
    let notes = NotificationRecorder(center, name: Self.themeDidChange)
    center.post(name: Self.themeDidChange, object: nil, userInfo: ["theme": "dark"])
    center.post(name: Notification.Name("Other"), object: nil)
    #expect(notes.notifications.count == 1)
    let note = try await notes.next(timeout: .seconds(10))
    #expect(note.userInfo?["theme"] as? String == "dark")
    await #expect(throws: EventTimeout.self) { try await notes.next(timeout: .milliseconds(10)) }
  }

  @Test("with an object, records only that sender's notifications")
  func sender() {
    final class Sender: Sendable {}
    let center = NotificationCenter()
    let sender = Sender()
    let notes = NotificationRecorder(center, name: Self.themeDidChange, object: sender)
    center.post(name: Self.themeDidChange, object: Sender())
    center.post(name: Self.themeDidChange, object: sender)
    #expect(notes.count == 1)
  }

  @Test("cancel stops recording and keeps what was recorded")
  func cancel() {
    let center = NotificationCenter()
    let notes = NotificationRecorder(center, name: Self.themeDidChange)
    center.post(name: Self.themeDidChange, object: nil)
    notes.cancel()
    center.post(name: Self.themeDidChange, object: nil)
    #expect(notes.count == 1)
  }

  @Test("expectNoNotification passes when none is posted and records an issue otherwise")
  func expectNone() async {
    let center = NotificationCenter()
    await expectNoNotification(Self.themeDidChange, center: center) {
      center.post(name: Notification.Name("Other"), object: nil)
    }
    await withKnownIssue {
      await expectNoNotification(Self.themeDidChange, center: center) {
        center.post(name: Self.themeDidChange, object: nil)
      }
    }
  }
}
