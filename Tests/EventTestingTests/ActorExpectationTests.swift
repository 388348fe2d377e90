import EventTesting
import EventTyped
import Foundation
import Testing

/// An actor's own state, not `Sendable`, that its expectations' closures touch.
private final class Counter {
  var value = 0
}

/// Every EventTesting API called from inside an actor: the closures run there and may touch
/// what the actor isolates.
private actor Inspector {
  static let name = Notification.Name("ActorExpectationTests.name")
  let counter = Counter()

  func expectReleasedMakesAnObject() async {
    await expectReleased {
      counter.value += 1  // the actor's state, touched where the closure runs
      return Counter()
    }
    let watch = ReleaseWatch(Counter())
    await watch.expectReleased()
  }

  func expectNothingPosted() async -> Int {
    let event = Event<Int>()
    await expectNoPost(on: event) { counter.value += 1 }
    await expectNoNotification(Self.name, center: NotificationCenter()) { counter.value += 1 }
    return counter.value
  }

  func recordersAndLog() async throws -> [Int] {
    let event = Event<Int>()
    let center = NotificationCenter()
    let recorder = EventRecorder(event)
    let notes = NotificationRecorder(center, name: Self.name)
    let log = DeliveryLog<Int>()
    let token = event.subscribe { log.record($0) }
    defer { token.cancel() }
    event.post(1)
    center.post(name: Self.name, object: nil)
    let next = try await recorder.next(timeout: .seconds(10))
    await recorder.expect([1])
    _ = try await notes.next(timeout: .seconds(10))
    await log.expect([1])
    DeliveryLog<Int>().expectNothing()
    await DeliveryLog<Int>().expectNothing(after: event)
    recorder.cancel()
    notes.cancel()
    return [next, recorder.count, notes.count, log.count]
  }

  func channelForms() async throws -> [Int] {
    let keyed = KeyedEvent<Int, Int>()
    let recorder = EventRecorder(keyed[1])
    keyed.post(1, to: 1)
    let next = try await recorder.next(timeout: .seconds(10))
    await recorder.expect([1])
    await expectNoPost(on: keyed[1]) { counter.value += 1 }
    await DeliveryLog<Int>().expectNothing(after: keyed[1])
    recorder.cancel()
    return [next, recorder.count, counter.value, keyed.keyCount]
  }
}

@Suite("EventTesting from an actor", .timeLimit(.minutes(1)))
struct ActorExpectationTests {
  @Test("expectReleased and ReleaseWatch, called on an actor")
  func released() async {
    await Inspector().expectReleasedMakesAnObject()
  }

  @Test("expectNoPost and expectNoNotification run their work on the calling actor")
  func nothingPosted() async {
    #expect(await Inspector().expectNothingPosted() == 2)
  }

  @Test("the recorders and the log, called on an actor")
  func recorders() async throws {
    #expect(try await Inspector().recordersAndLog() == [1, 1, 1, 1])
  }

  @Test("the channel forms, called on an actor")
  func channelForms() async throws {
    #expect(try await Inspector().channelForms() == [1, 1, 1, 0])
  }
}
