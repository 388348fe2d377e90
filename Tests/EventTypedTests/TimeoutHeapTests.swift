import EventTyped
import Testing

/// Ended timers stay in the process's deadline heap, marked done, until they come to its top or
/// outnumber the pending ones (`TimeoutScheduler`): the timers still pending must fire on time.
@Suite("Timeout heap")
struct TimeoutHeapTests {
  @Test("a wait times out after many answered waits left their timers in the heap")
  func timesOutAfterEndedTimers() async throws {
    let replies = KeyedEvent<Int, Int>()
    // Enough ended timers to drop them all at once, more than once.
    for key in 0..<500 {
      let reply = try await replies[key].next(timeout: .seconds(60)) { replies.post(key, to: key) }
      #expect(reply == key)
    }
    // Ended timers that come before the pending one, and after it.
    for key in 500..<520 {
      _ = try await replies[key].next(timeout: .milliseconds(10)) { replies.post(key, to: key) }
    }
    let start = ContinuousClock.now
    await #expect(throws: EventTimeout(timeout: .milliseconds(50))) {
      try await replies[-1].next(timeout: .milliseconds(50))
    }
    // A timer stuck behind the ended ones would fire at their deadline, 60 s. 30 s, not less:
    // on two cores the suite's stress tests can hold the cooperative pool, which the timeout's
    // resumption needs, for over ten seconds (one CI run measured 11.4 s for this 50 ms wait).
    #expect(ContinuousClock.now - start < .seconds(30))
    for key in 520..<540 {
      _ = try await replies[key].next(timeout: .seconds(1)) { replies.post(key, to: key) }
    }
    #expect(replies.keyCount == 0)
  }
}
