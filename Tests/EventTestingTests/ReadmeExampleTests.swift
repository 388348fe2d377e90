import EventTesting
import EventTyped
import Testing

// The README's EventTesting example, verbatim, so that it runs and passes. Change both together.

enum Downloads {
  static let didFinish = Event<(String, Int)>(delivery: .queue(DispatchQueue(label: "downloads")))
}

final class DownloadsScreen: Sendable {
  init(log: DeliveryLog<String>) {
    Downloads.didFinish.register(self) { _, download in log.record(download.0) }
  }
}

@Suite("README: EventTesting", .serialized)
struct ReadmeExampleTests {
  @Test func finishedDownloadsArePosted() async throws {
    let recorder = EventRecorder(Downloads.didFinish)  // records from now on
    Downloads.didFinish.post("a", 1)
    #expect(recorder.values.map(\.0) == ["a"])  // recorded before post returned

    DispatchQueue.global().async { Downloads.didFinish.post("b", 2) }
    #expect(try await recorder.next(timeout: .seconds(1)).0 == "a")  // the next unread payload
    #expect(try await recorder.next(timeout: .seconds(1)).0 == "b")  // or throws EventTimeout
  }

  @Test func aClosedScreenIsReleasedAndHearsNothing() async {
    let log = DeliveryLog<String>()
    await expectReleased { DownloadsScreen(log: log) }  // no registration keeps it alive
    Downloads.didFinish.post("c", 3)
    await log.expectNothing(after: Downloads.didFinish)  // waits for queued deliveries first
  }
}
