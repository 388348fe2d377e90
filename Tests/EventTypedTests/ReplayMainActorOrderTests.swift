import EventTestSupport
import EventTyped
import Testing

/// The observer of the registration made on another thread.
private final class Witness: Sendable {}

@Suite("Replay through .mainActor delivery")
struct ReplayMainActorOrderTests {
  @Test("a registration made off the main actor gets its replay before a later main-actor post")
  @MainActor
  func replayBeforeLaterMainActorPost() async {
    let event = Event<Int>(delivery: .mainActor, replay: .latest)
    event.post(1)
    let log = Recorder<Int>()
    let witness = Witness()
    // The main actor stays busy while the other thread registers: the replay of 1 is queued
    // onto the main queue.
    #expect(onOtherThread { event.register(witness) { _, value in log.record(value) } })
    event.post(2)  // on the main actor, after `register` returned
    await drainMainQueue()
    #expect(log.values == [1, 2], "the replayed payload must come before the later post")
  }
}
