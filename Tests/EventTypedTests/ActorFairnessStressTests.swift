import EventTestSupport
import EventTyped
import Foundation
import Testing

/// The actor whose handler a flood of posts keeps busy.
@globalActor
private actor FloodActor {
  static let shared = FloodActor()
}

/// Spins for `microseconds`: a handler with work to do, without sleeping on the actor.
private func work(microseconds: Double) {
  let end = Date().addingTimeInterval(microseconds / 1_000_000)
  while Date() < end {}
}

@Suite("Actor fairness Stress")
struct ActorFairnessStressTests {
  @Test("a job enqueued on an actor waits for one batch of deliveries, not for the flood")
  func jobWaitsForOneBatch() async {
    let event = Event<Int>()
    let posts = 2_000
    let delivered = Counter()
    let started = Signal()
    let finished = Signal()
    let token = event.subscribe { @FloodActor value in
      work(microseconds: 20)
      let count = delivered.increment()
      if count == 50 { started.fire() }
      if count == posts { finished.fire() }
    }
    // All posts are in the mailbox well before the handler has served 50 of them.
    Thread.detachNewThread { for value in 0..<posts { event.post(value) } }
    // Generous waits: each batch needs a thread of the cooperative pool, which the other
    // stress tests, run alongside under TSan, keep busy for seconds at a time.
    #expect(await started.arrival(seconds: 60))
    let atEnqueue = delivered.count
    let job = Task { @FloodActor in delivered.count }
    let atJob = await job.value
    #expect(await finished.arrival(seconds: 60))
    // The batch in progress when the job was enqueued (at most 16 calls), with slack for the
    // read of `atEnqueue` racing the handler.
    #expect(atJob - atEnqueue <= 32, "the job waited for \(atJob - atEnqueue) deliveries")
    #expect(delivered.count == posts)
    withExtendedLifetime(token) {}
  }
}
