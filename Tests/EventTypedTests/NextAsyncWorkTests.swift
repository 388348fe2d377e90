import EventTestSupport
import EventTyped
import Foundation
import Testing

/// `next` whose work suspends or throws: a request sent with `await` or `try` is registered for
/// before it goes out.
@Suite("Event.next with async work")
struct NextAsyncWorkTests {
  struct SendFailed: Error, Equatable {}

  @Test("a reply posted after work suspends is returned")
  func replyAfterSuspension() async throws {
    let replies = Event<Int>()
    let reply = try await replies.next(timeout: .seconds(10)) {
      await Task.yield()
      replies.post(7)
    }
    #expect(reply == 7)
    #expect(replies.observerCount == 0)
  }

  @Test("a reply posted on another thread while work is suspended is not missed")
  func replyWhileSuspended() async throws {
    let replies = Event<Int>()
    let reply = try await replies.next(where: { $0 > 1 }, timeout: .seconds(10)) {
      #expect(onOtherThread { replies.post(2) })
      // A suspension point after the reply: the wait must still hold it.
      await Task.yield()
    }
    #expect(reply == 2)
  }

  @Test("work that throws is rethrown and ends the registration; later posts are held")
  func workThrows() async {
    let inbox = Event<Int>(replay: .untilObserved)
    await #expect(throws: SendFailed()) {
      try await inbox.next(timeout: .seconds(10)) {
        await Task.yield()
        throw SendFailed()
      }
    }
    #expect(inbox.observerCount == 0)
    #expect(inbox.post(1) == 0)
    #expect(inbox.retained == [1])
  }

  @Test("a lone trailing closure with try await is the work")
  func loneTrailingClosure() async throws {
    let logins = Event<String>()
    let send: @Sendable () async throws -> Void = { logins.post("ada") }
    let user = try await logins.next { try await send() }
    #expect(user == "ada")
  }

  @Test("a timeout counts from when async work returns, not from when it starts")
  func timeoutAfterWork() async throws {
    let replies = Event<Int>()
    let timeout = Duration.milliseconds(20)
    let reply = try await replies.next(timeout: timeout) {
      // Work that outlasts the timeout (yielding, not sleeping), then replies: a timer started
      // with the work would have ended the wait before the reply.
      let start = ContinuousClock.now
      while ContinuousClock.now - start < timeout * 3 { await Task.yield() }
      replies.post(8)
    }
    #expect(reply == 8)
    await #expect(throws: EventTimeout(timeout: timeout)) {
      try await replies.next(timeout: timeout) { await Task.yield() }
    }
    #expect(replies.observerCount == 0)
  }

  @MainActor
  @Test("from the main actor, work uses main-actor state without being Sendable")
  func mainActorWork() async throws {
    final class Screen {
      var sent = 0
    }
    let screen = Screen()
    let replies = Event<Int>()
    let reply = try await replies.next(timeout: .seconds(10)) {
      await Task.yield()
      screen.sent += 1
      replies.post(screen.sent)
    }
    #expect(reply == 1)
  }
}
