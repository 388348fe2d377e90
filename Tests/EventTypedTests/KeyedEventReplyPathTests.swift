import EventTyped
import Foundation
import Testing

/// The request/reply path that the benchmark measures (issue 32): a key made by its waiter,
/// found by the reply's post, and removed when the waiter returns, throws or times out; and the
/// shared timeout timer under many waits at once.
@Suite("KeyedEvent request/reply path")
struct KeyedEventReplyPathTests {
  @Test("a waiter's registration makes its key, the reply reaches it, and the key goes")
  func replyReachesItsWaiter() async throws {
    let replies = KeyedEvent<Int, String>()
    let reply = try await replies[7].next(timeout: .seconds(30)) {
      #expect(replies.keyCount == 1)
      #expect(replies.post("seven", to: 7) == 1)
    }
    #expect(reply == "seven")
    #expect(replies.keyCount == 0)
  }

  @Test("a reply posted from another thread after the waiter suspends")
  func replyFromAnotherThread() async throws {
    let replies = KeyedEvent<Int, Int>()
    let reply = try await replies[1].next(timeout: .seconds(30)) {
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
        replies.post(41, to: 2)
        replies.post(42, to: 1)
      }
    }
    #expect(reply == 42)
    #expect(replies.keyCount == 0)
  }

  @Test("a timeout throws EventTimeout and removes the key")
  func timeoutRemovesTheKey() async {
    let replies = KeyedEvent<Int, Int>()
    await #expect(throws: EventTimeout(timeout: .milliseconds(20))) {
      try await replies[3].next(timeout: .milliseconds(20)) {}
    }
    #expect(replies.keyCount == 0)
    #expect(replies.post(1, to: 3) == 0)
  }

  @Test("cancellation throws CancellationError and removes the key")
  func cancellationRemovesTheKey() async {
    let replies = KeyedEvent<Int, Int>()
    let task = Task { try await replies[5].next(timeout: .seconds(30)) {} }
    while replies.keyCount == 0 { await Task.yield() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(replies.keyCount == 0)
  }

  @Test("2,000 requests in flight at once, answered by id: each gets its own reply")
  func manyInFlight() async throws {
    let replies = KeyedEvent<Int, Int>()
    let count = 2000
    try await withThrowingTaskGroup(of: Void.self) { group in
      for id in 0..<count {
        group.addTask {
          let reply = try await replies[id].next(timeout: .seconds(30)) {}
          #expect(reply == -id)
        }
      }
      while replies.keyCount < count { await Task.yield() }
      group.addTask {
        for id in 0..<count { #expect(replies.post(-id, to: id) == 1) }
      }
      try await group.waitForAll()
    }
    #expect(replies.keyCount == 0)
  }

  @Test("timeouts of different lengths in flight at once fire in deadline order, each once")
  func timeoutsOfDifferentLengths() async {
    let replies = KeyedEvent<Int, Int>()
    let order = OrderRecorder()
    await withTaskGroup(of: Void.self) { group in
      for (id, milliseconds) in [(0, 120), (1, 30), (2, 60), (3, 90)] {
        group.addTask {
          do {
            _ = try await replies[id].next(timeout: .milliseconds(milliseconds)) {}
          } catch {
            #expect(error as? EventTimeout == EventTimeout(timeout: .milliseconds(milliseconds)))
            order.append(id)
          }
        }
      }
    }
    #expect(order.values == [1, 2, 3, 0])
    #expect(replies.keyCount == 0)
  }

  @Test("a wait answered before its timeout leaves no timer that fires later")
  func answeredWaitLeavesNoTimer() async throws {
    let replies = KeyedEvent<Int, Int>()
    for round in 0..<200 {
      let reply = try await replies[round].next(timeout: .milliseconds(5)) {
        replies.post(round, to: round)
      }
      #expect(reply == round)
      // The key is removed before `next` returns: no wait is needed to see it gone.
      #expect(replies.keyCount == 0)
    }
  }
}

/// The ids appended by concurrent tasks, in order.
private final class OrderRecorder: Sendable {
  private let storage = NSLock()
  nonisolated(unsafe) private var ids: [Int] = []

  func append(_ id: Int) {
    storage.withLock { ids.append(id) }
  }

  var values: [Int] { storage.withLock { ids } }
}
