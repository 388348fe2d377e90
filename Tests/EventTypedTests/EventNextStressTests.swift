import EventTestSupport
import EventTyped
import Foundation
import Testing

@Suite("Event.next Stress")
struct EventNextStressTests {
  @Test("a reply posted on another thread as the timeout passes: one outcome, nothing left")
  func replyRacesTimeout() async {
    let replies = Event<Int>()
    var values = 0
    var timeouts = 0
    for round in 0..<300 {
      do {
        // The predicate keeps a late reply of an earlier round out of this one.
        let reply = try await replies.next(where: { $0 == round }, timeout: .microseconds(200)) {
          DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(200)) {
            replies.post(round)
          }
        }
        #expect(reply == round)
        values += 1
      } catch {
        #expect(error as? EventTimeout == EventTimeout(timeout: .microseconds(200)))
        timeouts += 1
      }
      #expect(replies.observerCount == 0)
    }
    #expect(values + timeouts == 300)
  }

  @Test("many tasks each wait for their own reply, posted inside work on other threads")
  func manyRepliesInsideWork() async throws {
    let replies = Event<Int>()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for id in 0..<200 {
        group.addTask {
          let reply = try await replies.next(where: { $0 == id }, timeout: .seconds(30)) {
            Thread.detachNewThread { replies.post(id) }
          }
          #expect(reply == id)
        }
      }
      try await group.waitForAll()
    }
    #expect(replies.observerCount == 0)
  }

  @Test("cancellation racing a reply: one outcome, and the registration always ends")
  func cancellationRacesReply() async {
    let replies = Event<Int>()
    for round in 0..<200 {
      let waiting = Task { try await replies.next(where: { $0 == round }) }
      Thread.detachNewThread { replies.post(round) }
      waiting.cancel()
      switch await waiting.result {
      case .success(let value): #expect(value == round)
      case .failure(let error): #expect(error is CancellationError)
      }
      #expect(replies.observerCount == 0)
    }
  }
}
