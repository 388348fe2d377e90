import EventBroadcast
import EventTestSupport
import Testing

private protocol DescribedWhileChanging {
  func changed()
}

private final class ChangingObserver: DescribedWhileChanging, Sendable {
  func changed() {}
}

@Suite("Broadcaster: String(reflecting:) while other threads register and notify: Stress")
struct BroadcasterDebugDescriptionStressTests {
  @Test("a broadcaster's description is always whole while its registrations change")
  func broadcasterDescription() {
    let broadcaster = Broadcaster()
    let kept = ChangingObserver()
    broadcaster.register((any DescribedWhileChanging).self, observer: kept, priority: 1)
    let wellFormed = Recorder<Bool>()
    let finished = runThreads(
      [
        {
          let observer = ChangingObserver()
          broadcaster.register((any DescribedWhileChanging).self, observer: observer)
          broadcaster.notify((any DescribedWhileChanging).self) { $0.changed() }
        },
        {
          let lines = String(reflecting: broadcaster).split(separator: "\n")
          let listed = lines.contains {
            $0.hasPrefix(
              "  DescribedWhileChanging: observer ChangingObserver, synchronous, priority 1")
          }
          wellFormed.record(lines[0].hasPrefix("Broadcaster, ") && listed)
        },
      ], seconds: 0.3)
    #expect(finished)
    #expect(!wellFormed.values.isEmpty && !wellFormed.values.contains(false))
    withExtendedLifetime(kept) {}
  }
}
