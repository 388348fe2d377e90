import EventTesting
import EventTyped
import Foundation
import Testing

// This target is built with `defaultIsolation(MainActor.self)`, as Xcode makes an app's test
// target (SE-0466): every declaration here is main-actor isolated unless it says otherwise.

/// A screen as app code writes it, main-actor isolated by default and not `Sendable`.
final class Screen {
  var shown: [Int] = []
  private var tokens = Set<Subscription>()

  init(_ event: Event<Int>) {
    event.subscribe { [weak self] value in self?.shown.append(value) }.store(in: &tokens)
  }
}

/// A key as an app declares it in this target: `nonisolated`, or its `Hashable` conformance
/// would be main-actor isolated and could not satisfy `KeyedEvent`'s `Key`.
nonisolated struct DocumentID: Hashable, Sendable {
  let raw: Int
}

@Suite("EventTesting in a default-main-actor target", .timeLimit(.minutes(1)))
struct DefaultMainActorExpectationTests {
  static let themeDidChange = Notification.Name("DefaultMainActorExpectationTests.theme")

  @Test("expectReleased and ReleaseWatch take main-actor objects")
  func released() async {
    let event = Event<Int>()
    await expectReleased { Screen(event) }
    let watch = ReleaseWatch(Screen(event))
    await watch.expectReleased()
    #expect(watch.isReleased)
  }

  @Test("expectNoPost and expectNoNotification take work that touches main-actor state")
  func nothingPosted() async {
    let event = Event<Int>()
    let screen = Screen(event)
    await expectNoPost(on: event) { screen.shown.append(0) }
    await expectNoNotification(Self.themeDidChange, center: NotificationCenter()) {
      screen.shown.append(1)
    }
    #expect(screen.shown == [0, 1])
  }

  @Test("the recorders and the log record, wait and expect")
  func recordersAndLog() async throws {
    let event = Event<Int>()
    let center = NotificationCenter()
    let recorder = EventRecorder(event)
    let notes = NotificationRecorder(center, name: Self.themeDidChange)
    let log = DeliveryLog<Int>()
    let token = event.subscribe { log.record($0) }
    event.post(1)
    center.post(name: Self.themeDidChange, object: nil)
    #expect(recorder.values == [1] && recorder.count == 1)
    #expect(try await recorder.next(timeout: .seconds(10)) == 1)
    await recorder.expect([1])
    #expect(notes.count == 1 && notes.notifications.count == 1)
    #expect(try await notes.next(timeout: .seconds(10)).name == Self.themeDidChange)
    await log.expect([1])
    #expect(log.entries == [1] && log.count == 1)
    token.cancel()
    recorder.cancel()
    notes.cancel()
    let quiet = DeliveryLog<Int>()
    quiet.expectNothing()
    await quiet.expectNothing(after: event)
  }

  @Test("the channel forms take a nonisolated key and work that touches main-actor state")
  func channelForms() async throws {
    let keyed = KeyedEvent<DocumentID, Int>()
    let id = DocumentID(raw: 1)
    let screen = Screen(Event<Int>())
    let recorder = EventRecorder(keyed[id])
    keyed.post(1, to: id)
    #expect(try await recorder.next(timeout: .seconds(10)) == 1)
    await recorder.expect([1])
    await expectNoPost(on: keyed[id]) { screen.shown.append(0) }
    await DeliveryLog<Int>().expectNothing(after: keyed[id])
    #expect(screen.shown == [0])
    #expect(keyed.keyCount == 0)
    recorder.cancel()
  }
}
