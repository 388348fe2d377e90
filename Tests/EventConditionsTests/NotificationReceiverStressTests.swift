import EventConditions
import EventTestSupport
import Foundation
import Testing

@Suite("NotificationReceiver Stress")
struct NotificationReceiverStressTests {
  @Test("10,000 concurrent arrivals are counted exactly and complete the set once")
  func tenThousandArrivals() {
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(NotificationConditioner("tick", minCount: 10_000))
    let completions = Counter()
    let verifiedReturns = Counter()
    let token = receiver.onVerified { completions.increment() }
    DispatchQueue.concurrentPerform(iterations: 9_999) { _ in
      if receiver.check("tick") { verifiedReturns.increment() }
    }
    #expect(receiver.remaining("tick") == 1)
    #expect(completions.count == 0)
    #expect(receiver.check("tick"))
    #expect(completions.count == 1)
    #expect(verifiedReturns.count == 0)
    token.cancel()
  }

  @Test("10,000 concurrent completing arrivals each fire once when repeating")
  func tenThousandRounds() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("tick"))
    let completions = Counter()
    let verifiedReturns = Counter()
    let token = receiver.onVerified { completions.increment() }
    DispatchQueue.concurrentPerform(iterations: 10_000) { _ in
      if receiver.check("tick") { verifiedReturns.increment() }
    }
    #expect(completions.count == 10_000)
    #expect(verifiedReturns.count == 10_000)
    token.cancel()
  }

  @Test("10,000 concurrent shared arrivals reach each holder exactly")
  func sharedArrivals() {
    let registry = SharedConditioners()
    let login = registry.conditioner("tick", minCount: 10_000)
    let first = NotificationReceiver()
    let second = NotificationReceiver(repeats: false)
    first.add(login)
    second.add(login)
    let completions = Counter()
    let tokens = [
      first.onVerified { completions.increment() },
      second.onVerified { completions.increment() },
    ]
    DispatchQueue.concurrentPerform(iterations: 10_000) { _ in registry.arrive("tick") }
    #expect(registry.remaining("tick") == 0)
    #expect(first.remaining("tick") == 0)
    #expect(completions.count == 2)
    _ = tokens
  }

  @Test("receivers added while arrivals race read every arrival exactly once")
  func addWhileArriving() {
    let registry = SharedConditioners()
    let login = registry.conditioner("tick", minCount: 2_000)
    let receivers = (0..<50).map { _ in NotificationReceiver() }
    let completions = Counter()
    let tokens = receivers.map { $0.onVerified { completions.increment() } }
    DispatchQueue.concurrentPerform(iterations: 2_050) { index in
      if index % 41 == 0, index / 41 < receivers.count {
        receivers[index / 41].add(login)
      } else {
        registry.arrive("tick")
      }
    }
    #expect(registry.remaining("tick") == 0)
    for receiver in receivers { #expect(receiver.remaining("tick") == 0) }
    // Each receiver completes once, through the arrival that met it or, if it was added
    // after that arrival, through the check that evaluates it.
    for receiver in receivers { receiver.check("tick") }
    #expect(completions.count == receivers.count)
    _ = tokens
  }

  @Test("handlers, ignores, resets and arrivals from many threads stay consistent")
  func mixedOperations() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    receiver.add(NotificationConditioner("b", minCount: 3))
    let completions = Counter()
    let ignores = Counter()
    let tokens = [
      receiver.onVerified { completions.increment() },
      receiver.onIgnored { _ in ignores.increment() },
    ]
    DispatchQueue.concurrentPerform(iterations: 4_000) { index in
      switch index % 8 {
      case 0: receiver.ignore("a")
      case 1: receiver.reset()
      case 2:
        let token = receiver.onVerified {}
        token.cancel()
      case 3: _ = receiver.isVerified
      case 4, 5: receiver.check("b")
      default: receiver.check("a")
      }
    }
    #expect(ignores.count == 500)
    // Whatever the interleaving, the receiver is left consistent: a full round completes it
    // exactly once more.
    receiver.reset()
    let before = completions.count
    receiver.check("a")
    receiver.check("b")
    receiver.check("b")
    #expect(completions.count == before)
    #expect(receiver.check("b"))
    #expect(completions.count == before + 1)
    _ = tokens
  }

  @Test("many verified() waiters, half cancelled, all resume and none is leaked")
  func waiters() async throws {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("done"))
    let resumed = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      var tasks: [Task<Void, Never>] = []
      for _ in 0..<200 {
        tasks.append(
          Task {
            await receiver.verified()
            resumed.increment()
          })
      }
      for task in tasks.prefix(100) { task.cancel() }
      for task in tasks.prefix(100) { await task.value }
      #expect(resumed.count == 100)
      // The other half are all suspended or about to be: none of them can miss the completion.
      try await waitUntil { receiver.waiterCount == 100 }
      receiver.check("done")
      for task in tasks.suffix(100) { group.addTask { await task.value } }
      try await group.waitForAll()
    }
    #expect(resumed.count == 200)
    #expect(receiver.waiterCount == 0)
  }
}
