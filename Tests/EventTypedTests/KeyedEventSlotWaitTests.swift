import EventTestSupport
import EventTyped
import Testing

/// A `next` on a key with no list waits in the key's slot (`KeyWaiters`), not in a list of its
/// own: what users see must be the same as for a `next` in a list.
@Suite("KeyedEvent: waits kept in the key's slot")
struct KeyedEventSlotWaitTests {
  @Test("a wait is counted while it waits, and gone from every count when next returns")
  func countedThenGone() async throws {
    let replies = KeyedEvent<Int, String>()
    let seen = Recorder<(Int, Bool, Int)>()
    let reply = try await replies[1].next(timeout: .seconds(10)) {
      seen.record((replies[1].observerCount, replies[1].isObserved, replies.keyCount))
      #expect(replies.post("reply", to: 1) == 1)
      #expect(replies.post("later", to: 1) == 0, "the answered wait is out of the slot")
    }
    #expect(reply == "reply")
    let (count, observed, keys) = try #require(seen.values.first)
    #expect(count == 1 && observed && keys == 1)
    #expect(replies.keyCount == 0, "removed by the post that answered it, before it resumed")
    #expect(replies[1].observerCount == 0)
    #expect(!replies[1].isObserved)
  }

  @Test("several waits on one key all get the post; a rejecting predicate keeps its wait")
  func severalWaits() async throws {
    let replies = KeyedEvent<Int, Int>()
    let first = Task { try await replies[1].next(timeout: .seconds(10)) }
    let even = Task { try await replies[1].next(where: { $0 % 2 == 0 }, timeout: .seconds(10)) }
    while replies[1].observerCount < 2 { await Task.yield() }
    #expect(replies.post(1, to: 1) == 2, "both reached: one took it, one rejected it")
    #expect(replies[1].observerCount == 1)
    #expect(try await first.value == 1)
    #expect(replies.post(2, to: 1) == 1)
    #expect(try await even.value == 2)
    #expect(replies.keyCount == 0)
  }

  @Test("waits made before the key's list come first; one made after goes in the list")
  func orderWithAList() async throws {
    let replies = KeyedEvent<Int, Int>()
    let calls = Recorder<String>()
    let early = Task {
      try await replies[1].next(
        where: { _ in
          calls.record("early wait")
          return true
        }, timeout: .seconds(10))
    }
    while replies[1].observerCount < 1 { await Task.yield() }
    let token = replies[1].subscribe { _ in calls.record("subscriber") }
    let late = Task {
      try await replies[1].next(
        where: { _ in
          calls.record("late wait")
          return true
        }, timeout: .seconds(10))
    }
    while replies[1].observerCount < 3 { await Task.yield() }
    #expect(replies.post(5, to: 1) == 3)
    #expect(calls.values == ["early wait", "subscriber", "late wait"])
    #expect(try await early.value == 5)
    #expect(try await late.value == 5)
    #expect(replies[1].observerCount == 1)
    token.cancel()
    #expect(replies.keyCount == 0)
  }

  @Test("the key stays while a wait outlives the key's list, and goes with the wait")
  func waitOutlivesList() async throws {
    let replies = KeyedEvent<Int, Int>()
    let wait = Task { try await replies[1].next(timeout: .seconds(10)) }
    while replies[1].observerCount < 1 { await Task.yield() }
    replies[1].subscribe { _ in }.cancel()
    #expect(replies.keyCount == 1)
    #expect(replies[1].observerCount == 1)
    #expect(replies.post(3, to: 1) == 1)
    #expect(try await wait.value == 3)
    #expect(replies.keyCount == 0)
  }

  @Test("onObservedChange follows the waits, with or without a list beside them")
  func observedChanges() async throws {
    let replies = KeyedEvent<Int, Int>()
    let changes = Recorder<Bool>()
    let handler = replies[1].onObservedChange { changes.record($0) }
    let wait = Task { try await replies[1].next(timeout: .seconds(10)) }
    while replies[1].observerCount < 1 { await Task.yield() }
    let token = replies[1].subscribe { _ in }
    token.cancel()
    #expect(replies.post(3, to: 1) == 1)
    #expect(try await wait.value == 3)
    #expect(changes.values == [true, false], "the list's own start and end change nothing")
    handler.cancel()

    let late = Recorder<Bool>()
    let waiting = Task { try await replies[2].next(timeout: .seconds(10)) }
    while replies[2].observerCount < 1 { await Task.yield() }
    let lateHandler = replies[2].onObservedChange { late.record($0) }
    #expect(replies.post(4, to: 2) == 1)
    #expect(try await waiting.value == 4)
    #expect(late.values == [false], "installed while a wait waits, it hears the end")
    lateHandler.cancel()
    #expect(replies.keyCount == 0)
  }

  @Test("a timed-out or cancelled wait has left its key when next throws")
  func failuresLeave() async throws {
    let replies = KeyedEvent<Int, Int>()
    await #expect(throws: EventTimeout.self) {
      try await replies[1].next(timeout: .milliseconds(20))
    }
    #expect(replies.keyCount == 0)
    let cancelled = Task {
      do {
        _ = try await replies[2].next(timeout: .seconds(10))
        return false
      } catch {
        return error is CancellationError && replies.keyCount == 0
      }
    }
    while replies[2].observerCount < 1 { await Task.yield() }
    cancelled.cancel()
    #expect(await cancelled.value)
  }

  @Test(
    "unregisterAll ends waiting next calls, which throw CancellationError",
    arguments: [false, true])
  func unregisterAllEndsWaits(timed: Bool) async throws {
    let event = Event<Int>()
    let keyed = KeyedEvent<Int, Int>()
    let errors = Recorder<String>()
    let timeout: Duration? = timed ? .seconds(60) : nil
    let record: @Sendable (any Error) -> Void = { errors.record(String(describing: type(of: $0))) }
    let waits = [
      Task { do { _ = try await event.next(timeout: timeout) } catch { record(error) } },
      Task { do { _ = try await keyed[1].next(timeout: timeout) } catch { record(error) } },
    ]
    while event.observerCount < 1 || keyed[1].observerCount < 1 { await Task.yield() }
    // A key with a list: its wait is in the list.
    let token = keyed[2].subscribe { _ in }
    let inList = Task {
      do { _ = try await keyed[2].next(timeout: timeout) } catch { record(error) }
    }
    while keyed[2].observerCount < 2 { await Task.yield() }
    event.unregisterAll()
    keyed[1].unregisterAll()
    keyed[2].unregisterAll()
    let ended = await finishes(within: 10) {
      for wait in waits + [inList] { await wait.value }
    }
    #expect(ended, "a next whose registration was ended must not wait for ever")
    #expect(errors.values == Array(repeating: "CancellationError", count: 3))
    #expect(keyed.keyCount == 0)
    token.cancel()
  }
}
