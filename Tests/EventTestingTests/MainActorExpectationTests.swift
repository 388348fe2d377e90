import EventTesting
import EventTyped
import Foundation
import Testing

/// A screen as UI code writes it: main-actor state, not `Sendable`.
@MainActor private final class Screen {
  var shown: [Int] = []
  private var tokens = Set<Subscription>()

  init(_ event: Event<Int>) {
    event.subscribe { [weak self] value in self?.shown.append(value) }.store(in: &tokens)
  }
}

/// Every EventTesting API called from `@MainActor` tests, where closures and non-`Sendable`
/// values stay on the main actor: these must compile as written, without `@Sendable` closures.
@MainActor
@Suite("EventTesting from the main actor", .timeLimit(.minutes(1)))
struct MainActorExpectationTests {
  static let themeDidChange = Notification.Name("MainActorExpectationTests.theme")

  @Test("expectReleased takes a closure that makes a main-actor screen")
  func expectReleasedMakesAScreen() async {
    let event = Event<Int>()
    await expectReleased { Screen(event) }
    let watch = ReleaseWatch(Screen(event))
    #expect(watch.isReleased)
    await watch.expectReleased()
  }

  @Test("expectNoPost and expectNoNotification take work that touches main-actor state")
  func expectNothingPosted() async {
    let event = Event<Int>()
    let center = NotificationCenter()
    let screen = Screen(event)
    await expectNoPost(on: event) { screen.shown.append(0) }
    await expectNoNotification(Self.themeDidChange, center: center) { screen.shown.append(1) }
    #expect(screen.shown == [0, 1])
  }

  @Test("the recorders and the log record, wait and expect from the main actor")
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
    quiet.record(2)
    #expect(quiet.entries == [2])
  }

  @Test("the channel forms record, wait and expect from the main actor, touching its state")
  func channelForms() async throws {
    let keyed = KeyedEvent<Int, Int>()
    let screen = Screen(Event<Int>())
    let recorder = EventRecorder(keyed[1])
    keyed.post(1, to: 1)
    #expect(try await recorder.next(timeout: .seconds(10)) == 1)
    await recorder.expect([1])
    await expectNoPost(on: keyed[1]) { screen.shown.append(0) }
    await DeliveryLog<Int>().expectNothing(after: keyed[1])
    #expect(screen.shown == [0])
    #expect(keyed.keyCount == 0)
    recorder.cancel()
  }
}
