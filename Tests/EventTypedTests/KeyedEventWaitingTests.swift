import EventTestSupport
import EventTyped
import Foundation
import Testing

private struct SendFailed: Error, Equatable {}

/// What a test's waiting body produced, read after a bounded wait.
private final class Outcome<Value: Sendable>: Sendable {
  private let storage = Recorder<Result<Value, any Error>>()

  func record(_ body: () async throws -> Value) async {
    do { storage.record(.success(try await body())) } catch { storage.record(.failure(error)) }
  }

  var value: Value? { try? storage.values.first?.get() }
  var error: (any Error)? {
    guard case .failure(let error) = storage.values.first else { return nil }
    return error
  }
}

@Suite("KeyedEvent: next, values and flush per key")
struct KeyedEventWaitingTests {
  @Test("next with synchronous work gets its own key's reply; other keys' posts pass it by")
  func nextWithWork() async throws {
    let replies = KeyedEvent<Int, String>()
    let predicateCalls = Counter()
    let reply = try await replies[7].next(
      where: { _ in
        predicateCalls.increment()
        return true
      }, timeout: .seconds(10)
    ) {
      #expect(replies.keyCount == 1, "registered before work runs")
      #expect(replies.post("for 8", to: 8) == 0)
      #expect(replies.post("for 7", to: 7) == 1)
    }
    #expect(reply == "for 7")
    #expect(predicateCalls.count == 1, "another key's post never ran the predicate")
    #expect(replies.keyCount == 0)
  }

  @Test("next(after:) with a lone trailing closure, synchronous or async throwing")
  func loneTrailingClosure() async throws {
    let replies = KeyedEvent<Int, String>()
    let sync = try await replies[1].next { replies.post("a", to: 1) }
    #expect(sync == "a")
    let send: @Sendable () async throws -> Void = { replies.post("b", to: 2) }
    let async = try await replies[2].next { try await send() }
    #expect(async == "b")
    #expect(replies.keyCount == 0)
  }

  @Test("next with async work, where: and timeout: takes the first match posted to its key")
  func nextAsyncWork() async throws {
    let replies = KeyedEvent<Int, Int>()
    let reply = try await replies[3].next(where: { $0 > 1 }, timeout: .seconds(10)) {
      await Task.yield()
      #expect(onOtherThread { replies.post(1, to: 3) })
      #expect(onOtherThread { replies.post(5, to: 4) })
      #expect(onOtherThread { replies.post(2, to: 3) })
      await Task.yield()
    }
    #expect(reply == 2)
    #expect(replies.keyCount == 0)
  }

  @Test("async work that throws is rethrown, and no key is left behind")
  func asyncWorkThrows() async {
    let replies = KeyedEvent<Int, Int>()
    await #expect(throws: SendFailed()) {
      try await replies[1].next(timeout: .seconds(10)) {
        #expect(replies.keyCount == 1)
        await Task.yield()
        throw SendFailed()
      }
    }
    #expect(replies.keyCount == 0)
    #expect(replies.post(1, to: 1) == 0)
  }

  @Test("a timeout throws EventTimeout and removes the key")
  func timeout() async {
    let replies = KeyedEvent<Int, Int>()
    await #expect(throws: EventTimeout(timeout: .milliseconds(20))) {
      try await replies[1].next(timeout: .milliseconds(20)) { replies.post(0, to: 2) }
    }
    #expect(replies.keyCount == 0)
    await #expect(throws: EventTimeout(timeout: .milliseconds(20))) {
      try await replies[1].next(timeout: .milliseconds(20)) { await Task.yield() }
    }
    #expect(replies.keyCount == 0)
  }

  @Test("a cancelled wait throws CancellationError and removes the key")
  func cancelled() async throws {
    let replies = KeyedEvent<Int, Int>()
    let registered = Signal()
    let outcome = Outcome<Int>()
    let waiting = Task {
      await outcome.record { try await replies[1].next { registered.fire() } }
    }
    #expect(await registered.arrival())
    waiting.cancel()
    #expect(await finishes { await waiting.value })
    #expect(outcome.error is CancellationError)
    #expect(replies.keyCount == 0)
    #expect(replies.post(1, to: 1) == 0)
  }

  @Test("several waiters on one key each get the same post; on two keys, each its own")
  func waitersPerKey() async throws {
    let replies = KeyedEvent<Int, Int>()
    let outcomes = (0..<3).map { _ in Outcome<Int>() }
    let registered = Signal()
    let tasks = [(1, outcomes[0]), (1, outcomes[1]), (2, outcomes[2])].map { key, outcome in
      Task {
        await outcome.record {
          try await replies[key].next(timeout: .seconds(30)) { registered.fire() }
        }
      }
    }
    for _ in tasks { #expect(await registered.arrival()) }
    #expect(replies.keyCount == 2)
    #expect(replies.post(10, to: 1) == 2)
    #expect(replies.post(20, to: 2) == 1)
    for task in tasks { #expect(await finishes { await task.value }) }
    #expect(outcomes.map(\.value) == [10, 10, 20])
    #expect(replies.keyCount == 0)
  }

  @Test("values streams a key's posts, in order, and its end removes the key")
  func values() async throws {
    let keyed = KeyedEvent<Int, Int>()
    let collected = Recorder<Int>()
    // The stream and its iterator live in the task only: once it returns, both are gone.
    let consumer = Task {
      for await value in keyed[1].values {
        collected.record(value)
        if collected.count == 3 { break }
      }
    }
    #expect(await holdsSoon { keyed.keyCount == 1 })
    for value in 1...3 { keyed.post(value, to: 1) }
    keyed.post(99, to: 2)
    #expect(await finishes { await consumer.value })
    #expect(collected.values == [1, 2, 3])
    #expect(await holdsSoon { keyed.keyCount == 0 }, "the stream's end removed its key")
  }

  @Test("flush waits for the key's queued deliveries")
  func flush() async {
    let queue = DispatchQueue(label: "keyed flush")
    let keyed = KeyedEvent<Int, Int>(delivery: .queue(queue))
    let log = Recorder<Int>()
    let token = keyed[1].subscribe { log.record($0) }
    let result = await flushResult(
      holding: queue, post: { for value in 0..<10 { keyed.post(value, to: 1) } },
      flush: { () -> [Int] in
        await keyed[1].flush()
        return log.values
      })
    #expect(result == Array(0..<10))
    #expect(await finishes { await keyed[2].flush() }, "a key with no list returns at once")
    token.cancel()
  }
}

/// `next` leaves its key's list inside the post that delivered its payload, for `Event` and
/// `KeyedEvent` alike: a post that starts after that one never counts it and never runs its
/// predicate.
@Suite("next leaves inside the post that delivered its payload")
struct NextLeavesInItsPostPerKeyTests {
  @Test("KeyedEvent: a later post, synchronous work, returns 0 and runs no predicate")
  func keyedSyncWork() async throws {
    let replies = KeyedEvent<Int, Int>()
    let calls = Counter()
    let counts = Recorder<Int>()
    let reply = try await replies[1].next(
      where: { value in
        calls.increment()
        return value > 0
      }, timeout: .seconds(10)
    ) {
      counts.record(replies.post(0, to: 1))
      counts.record(replies.post(1, to: 1))
      counts.record(replies[1].observerCount)
      counts.record(replies.post(2, to: 1))
    }
    #expect(reply == 1)
    #expect(counts.values == [1, 1, 0, 0])
    #expect(calls.count == 2, "the predicate ran for 0 and 1, never for 2")
  }

  @Test("KeyedEvent: a later post from another thread while async work runs returns 0")
  func keyedAsyncWork() async throws {
    let replies = KeyedEvent<Int, Int>()
    let calls = Counter()
    let counts = Recorder<Int>()
    let reply = try await replies[1].next(
      where: { _ in
        calls.increment()
        return true
      }, timeout: .seconds(10)
    ) {
      #expect(onOtherThread { counts.record(replies.post(1, to: 1)) })
      await Task.yield()
      #expect(onOtherThread { counts.record(replies.post(2, to: 1)) })
    }
    #expect(reply == 1)
    #expect(counts.values == [1, 0])
    #expect(calls.count == 1)
  }

  @Test("Event: a later post while async work runs returns 0 and runs no predicate")
  func eventAsyncWork() async throws {
    let replies = Event<Int>()
    let calls = Counter()
    let counts = Recorder<Int>()
    let reply = try await replies.next(
      where: { _ in
        calls.increment()
        return true
      }, timeout: .seconds(10)
    ) {
      #expect(onOtherThread { counts.record(replies.post(1)) })
      await Task.yield()
      #expect(onOtherThread { counts.record(replies.post(2)) })
      counts.record(replies.observerCount)
    }
    #expect(reply == 1)
    #expect(counts.values == [1, 0, 0])
    #expect(calls.count == 1)
  }

  @Test("KeyedEvent: a waiter answered while its task cannot resume is not counted again")
  func keyedWaiterNotYetResumed() async throws {
    let replies = KeyedEvent<Int, Int>()
    let calls = Counter()
    let registered = Signal()
    // The waiter runs on the main actor, which this test holds while posting, so it has its
    // reply but cannot have resumed when the second post starts.
    let waiting = Task { @MainActor in
      try await replies[1].next(
        where: { _ in
          calls.increment()
          return true
        }, timeout: .seconds(30)
      ) { registered.fire() }
    }
    #expect(await registered.arrival())
    let counts = await MainActor.run {
      [replies.post(1, to: 1), replies.post(2, to: 1), replies[1].observerCount]
    }
    #expect(counts == [1, 0, 0])
    #expect(await finishes { _ = try? await waiting.value })
    #expect(try await waiting.value == 1)
    #expect(calls.count == 1)
    #expect(replies.keyCount == 0)
  }
}
