import EventCore
import EventRAII
import EventTestSupport
import Foundation
import Testing

@Suite("NotificationCenter queued observations: an unbounded backlog is named when it grows")
struct NotificationCenterBacklogTests {
  @Test("past backlogWarning calls waiting, one line names the center's name and the site, once")
  func backlogWarning() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let center = NotificationCenter()
      let name = Notification.Name("NotificationCenterBacklogTests.flood")
      let queue = DispatchQueue(label: "held")
      let token = center.observe(name, delivery: .queue(queue)) { _ in }
      let held = Signal()
      queue.async { _ = held.wait() }
      let threshold = EventDiagnostics.backlogWarning ?? 10_000
      for _ in 0...(threshold * 2) { center.post(name: name, object: nil) }
      held.fire()
      _ = drain(queue)
      withExtendedLifetime(token) {}
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.components(separatedBy: "EventDiagnostics.backlogWarning").count == 2)
    #expect(output.contains("NotificationCenter name NotificationCenterBacklogTests.flood"))
    #expect(output.contains("NotificationCenterBacklogTests.swift:"))
  }
}
