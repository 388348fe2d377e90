import EventBroadcast
import EventTestSupport
import Foundation
import Testing

/// The actor whose observer a flood of notifications keeps busy.
@globalActor
private actor FloodActor {
  static let shared = FloodActor()
}

/// Spins for `microseconds`: a call with work to do, without sleeping on the actor.
private func work(microseconds: Double) {
  let end = Date().addingTimeInterval(microseconds / 1_000_000)
  while Date() < end {}
}

private protocol Flooded: AnyObject, Sendable {
  func take(_ value: Int)
  nonisolated(nonsending) func takeAsync(_ value: Int) async
}

/// An observer registered from the flood actor's code, so its calls run there, that counts
/// them and fires `started` at the 50th and `finished` at the last.
private final class Counting: Flooded, Sendable {
  let delivered = Counter()
  let started = Signal()
  let finished = Signal()
  let total: Int

  init(total: Int) {
    self.total = total
  }

  func take(_ value: Int) {
    work(microseconds: 20)
    let count = delivered.increment()
    if count == 50 { started.fire() }
    if count == total { finished.fire() }
  }

  // Never suspends: the async drain alone decides when the actor is given up.
  nonisolated(nonsending) func takeAsync(_ value: Int) async {
    take(value)
  }
}

@Suite("Broadcaster fairness Stress")
struct BroadcasterFairnessStressTests {
  /// Floods `observer` with `notify` from another thread, then checks that a job enqueued on
  /// the actor meanwhile waited for one batch of calls at most.
  private func expectOneBatch(_ observer: Counting, _ notify: @escaping @Sendable () -> Void)
    async
  {
    // All notifications are in the mailbox well before the observer has had 50 of them.
    Thread.detachNewThread { for _ in 0..<observer.total { notify() } }
    // Generous waits: each batch needs a thread of the cooperative pool, which the other
    // stress tests, run alongside under TSan, keep busy for seconds at a time.
    #expect(await observer.started.arrival(seconds: 60))
    let atEnqueue = observer.delivered.count
    let job = Task { @FloodActor in observer.delivered.count }
    let atJob = await job.value
    #expect(await observer.finished.arrival(seconds: 60))
    // The batch in progress when the job was enqueued (at most 16 calls), with slack for the
    // read of `atEnqueue` racing the observer.
    #expect(atJob - atEnqueue <= 32, "the job waited for \(atJob - atEnqueue) calls")
    #expect(observer.delivered.count == observer.total)
  }

  @Test("a job enqueued on an actor waits for one batch of an observer's calls, not the flood")
  func jobWaitsForOneBatch() async {
    let hub = Broadcaster()
    let observer = Counting(total: 2_000)
    hub.register((any Flooded).self, observer: observer, isolation: FloodActor.shared)
    await expectOneBatch(observer) {
      hub.notify((any Flooded).self) { $0.take(0) }
    }
  }

  @Test("a job enqueued on an actor waits for one batch of async bodies, not the flood")
  func jobWaitsForOneAsyncBatch() async {
    let hub = Broadcaster()
    let observer = Counting(total: 2_000)
    hub.register((any Flooded).self, observer: observer, isolation: FloodActor.shared)
    await expectOneBatch(observer) {
      hub.notify((any Flooded).self) { await $0.takeAsync(0) }
    }
  }
}
