import EventTestSupport
import Events
import Foundation
import Testing

// Compiled in Swift 5 language mode: the waiting forms' call shapes, as a Swift 5 client writes
// them.

@Suite("Swift 5 client: waiting")
struct Swift5WaitingCallShapesTests {
  @Test("next, flush, retained and init(replay:initial:) compile and behave as in Swift 6")
  func eventWaiting() async throws {
    let replies = Event<Int>(replay: .latest, initial: 0)
    #expect(replies.retained == [0])
    #expect(try await replies.next() == 0)
    #expect(
      try await replies.next(where: { $0 > 0 }, timeout: .seconds(10)) { replies.post(1) } == 1)
    // With a replay the retained payload comes first: these two wait on an event without one.
    let plain = Event<Int>()
    #expect(try await plain.next(timeout: .seconds(10)) { plain.post(2) } == 2)
    #expect(try await plain.next { plain.post(3) } == 3)
    await replies.flush()
  }

  @Test("next with async, throwing work compiles beside the synchronous form")
  func asyncWork() async throws {
    let replies = Event<Int>()
    let send: @Sendable (Int) async throws -> Void = { replies.post($0) }
    #expect(try await replies.next(timeout: .seconds(10)) { try await send(4) } == 4)
    #expect(try await replies.next { try await send(5) } == 5)
    #expect(
      try await replies.next(where: { $0 == 6 }, timeout: .seconds(10)) {
        await Task.yield()
        replies.post(6)
      } == 6)
  }

  @Test("a channel's next, with synchronous and with async throwing work, compiles in Swift 5")
  func channelWaiting() async throws {
    let replies = KeyedEvent<Int, Int>()
    let send: @Sendable (Int) async throws -> Void = { replies.post($0 * 10, to: $0) }
    #expect(try await replies[1].next(timeout: .seconds(10)) { replies.post(1, to: 1) } == 1)
    #expect(try await replies[2].next { try await send(2) } == 20)
    #expect(
      try await replies[3].next(where: { $0 > 0 }, timeout: .seconds(10)) { try await send(3) }
        == 30)
    #expect(replies.keyCount == 0)
    await replies[1].flush()
  }

  @Test("verified(timeout:after:), async work, listen(as:) and onArrival compile in Swift 5")
  func receiverWaiting() async throws {
    let center = NotificationCenter()
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("profile"))
    let log = Recorder<String>()
    let arrivals = receiver.onArrival { log.record($0) }
    let listening = receiver.listen(
      to: Notification.Name("GetUserProfileSuccessNotification"), center: center, as: "profile")
    try await receiver.verified(timeout: .seconds(10)) {
      center.post(name: Notification.Name("GetUserProfileSuccessNotification"), object: nil)
    }
    await receiver.verified {
      await Task.yield()
      receiver.check("profile")
    }
    #expect(log.values == ["profile", "profile"])
    withExtendedLifetime((arrivals, listening)) {}
  }
}
