import EventTestSupport
import EventTyped
import Foundation
import Testing

/// Waits for `keys`, each once, with many in flight at a time, and answers each.
///
/// Each batch's waiters register (their work counts them), then one post per key answers
/// them, each post reaching exactly its own waiter.
///
/// - Returns: Whether every waiter got its own reply within the bounds.
private func waitOnce(
  _ keys: Range<Int>, inFlight: Int, timeout: Duration? = .seconds(60),
  on replies: KeyedEvent<Int, Int>
) async -> Bool {
  var ok = true
  for start in stride(from: keys.lowerBound, to: keys.upperBound, by: inFlight) {
    let batch = start..<min(start + inFlight, keys.upperBound)
    let registered = Counter()
    let answered = Counter()
    let wrong = Counter()
    await withTaskGroup(of: Void.self) { group in
      for key in batch {
        group.addTask {
          do {
            let reply = try await replies[key].next(timeout: timeout) {
              registered.increment()
            }
            if reply == key { answered.increment() } else { wrong.increment() }
          } catch {
            wrong.increment()
          }
        }
      }
      let deadline = ContinuousClock.now + .seconds(60)
      while registered.count < batch.count && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
      }
      for key in batch where replies.post(key, to: key) != 1 { wrong.increment() }
    }
    if answered.count != batch.count || wrong.count != 0 { ok = false }
  }
  return ok
}

@Suite("KeyedEvent: memory follows the live registrations", .serialized)
struct KeyedEventMemoryTests {
  /// 1,000,000 keys in a normal run. Under a sanitizer (CI runs the whole suite under TSan and
  /// ASan), where each allocation and atomic costs many times more, 100,000: a key or a
  /// registration left behind per wait (hundreds of bytes each) shows as plainly at that count,
  /// and 1,000,000 would take minutes there.
  static let keyCount = Sanitizers.isActive ? 100_000 : 1_000_000

  @Test("a million distinct keys each waited on once and answered leave no key and no memory")
  func millionKeys() async {
    let replies = KeyedEvent<Int, Int>()
    let inFlight = 10_000
    // Warm-up: the task group's, the executor's and the dictionary's first allocations, which
    // stay, are made before the baseline.
    #expect(await waitOnce(-2 * inFlight..<0, inFlight: inFlight, on: replies))
    #expect(replies.keyCount == 0)
    let baseline = HeapUsage.bytesInUse
    let clock = ContinuousClock()
    let start = clock.now

    // Without a timeout, which would double the time (the timeouts have a test of their own
    // below); the run as a whole is bounded instead.
    let answered = Counter()
    let done = await finishes(within: 600) {
      if await waitOnce(0..<Self.keyCount, inFlight: inFlight, timeout: nil, on: replies) {
        answered.increment()
      }
    }
    #expect(done && answered.count == 1, "every waiter got its own reply, in time")

    let elapsed = clock.now - start
    #expect(replies.keyCount == 0)
    // Other tests may run beside this one and hold memory for a moment: a leak stays, their
    // noise goes, so read until it is within the slack or the bound passes. The slack, 1 MB, is
    // one byte per key (ten under a sanitizer); one key's list is hundreds.
    let slack = 1 << 20
    var grown = HeapUsage.bytesInUse - baseline
    let deadline = ContinuousClock.now + .seconds(5)
    while grown > slack && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
      grown = HeapUsage.bytesInUse - baseline
    }
    #expect(grown <= slack, "\(grown) bytes more than before \(Self.keyCount) keys")
    print("KeyedEventMemoryTests: \(Self.keyCount) keys in \(elapsed), heap grew \(grown) bytes")
  }

  @Test("answered waits hold nothing until their timeout's deadline")
  func answeredTimedWaitsHoldNothing() async {
    let replies = KeyedEvent<Int, Int>()
    #expect(await waitOnce(-4000..<0, inFlight: 2000, on: replies))
    let baseline = HeapUsage.bytesInUse
    // Each batch waits, suspended, long enough for its timers to start: a timer kept until its
    // deadline (60 s) holds its wait, hundreds of bytes, so 20,000 of them are megabytes.
    let waits = 20_000
    #expect(await waitOnce(0..<waits, inFlight: 2000, on: replies))
    #expect(replies.keyCount == 0)
    // Timers that were ended are released a moment later, on a dispatch thread.
    let slack = 256 * 1024
    var grown = HeapUsage.bytesInUse - baseline
    let deadline = ContinuousClock.now + .seconds(5)
    while grown > slack && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
      grown = HeapUsage.bytesInUse - baseline
    }
    #expect(grown <= slack, "\(grown) bytes held after \(waits) answered timed waits")
  }
}
