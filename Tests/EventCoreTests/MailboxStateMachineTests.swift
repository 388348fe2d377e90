import EventCore
import Testing

@Suite("A mailbox's rules: what waits, what is dropped, what is reported")
struct MailboxStateMachineTests {
  /// Takes every call, in order, as the drain would: payloads with the report made before
  /// each, and markers as "marker".
  private func drainAll(_ mailbox: inout MailboxStateMachine<Int>) -> [String] {
    var taken: [String] = []
    while true {
      switch mailbox.next() {
      case .payload(let payload, let report):
        if let report { taken.append("report \(report)") }
        taken.append("\(payload)")
      case .marker:
        taken.append("marker")
      case .idle:
        return taken
      }
    }
  }

  @Test("the first arrival starts the drain, and the drain ends when the mailbox is empty")
  func drainStartsAndEnds() {
    var mailbox = MailboxStateMachine<Int>(backlog: .unbounded)
    #expect(mailbox.enqueue(1, warningAbove: .max).startsDrain)
    #expect(!mailbox.enqueue(2, warningAbove: .max).startsDrain)
    #expect(drainAll(&mailbox) == ["1", "2"])
    #expect(!mailbox.isDraining)
    #expect(mailbox.enqueue(3, warningAbove: .max).startsDrain)
  }

  @Test(
    "dropOldest keeps the newest, in order, reports the first drop at once and the rest before the next call"
  )
  func dropOldest() {
    var mailbox = MailboxStateMachine<Int>(backlog: .dropOldest(3))
    var reportedAtOnce: [Int] = []
    for value in 1...10 {
      let arrival = mailbox.enqueue(value, warningAbove: .max)
      #expect(arrival.accepted)
      #expect(arrival.dropped == (value > 3))
      if let report = arrival.report { reportedAtOnce.append(report) }
    }
    #expect(mailbox.waiting == 3)
    #expect(reportedAtOnce == [1])
    #expect(drainAll(&mailbox) == ["report 6", "8", "9", "10"])
  }

  @Test("dropNewest keeps the oldest and refuses what comes once it is full")
  func dropNewest() {
    var mailbox = MailboxStateMachine<Int>(backlog: .dropNewest(2))
    let accepted = (1...5).map { mailbox.enqueue($0, warningAbove: .max).accepted }
    #expect(accepted == [true, true, false, false, false])
    #expect(drainAll(&mailbox) == ["report 2", "1", "2"])
  }

  @Test("a call between drops ends the burst: the next drop is reported at once again")
  func burstEndsWithACall() {
    var mailbox = MailboxStateMachine<Int>(backlog: .dropOldest(1))
    _ = mailbox.enqueue(1, warningAbove: .max)
    #expect(mailbox.enqueue(2, warningAbove: .max).report == 1)
    #expect(mailbox.enqueue(3, warningAbove: .max).report == nil)
    guard case .payload(3, report: 1) = mailbox.next() else {
      Issue.record("expected 3 with the coalesced report")
      return
    }
    _ = mailbox.enqueue(4, warningAbove: .max)
    #expect(mailbox.enqueue(5, warningAbove: .max).report == 1)
  }

  @Test("markers keep their place, are never dropped and do not count against the limit")
  func markers() {
    var mailbox = MailboxStateMachine<Int>(backlog: .dropOldest(2))
    #expect(!mailbox.enqueueMarker {})  // nothing waits: the caller runs it at once
    _ = mailbox.enqueue(1, warningAbove: .max)
    #expect(mailbox.enqueueMarker {})
    _ = mailbox.enqueue(2, warningAbove: .max)
    _ = mailbox.enqueue(3, warningAbove: .max)  // drops 1, not the marker
    #expect(mailbox.waiting == 2)
    #expect(drainAll(&mailbox) == ["marker", "2", "3"])
  }

  @Test("replayed payloads are neither counted nor dropped")
  func replayIsNotABacklog() {
    var mailbox = MailboxStateMachine<Int>(backlog: .dropOldest(1))
    for value in 1...3 { _ = mailbox.enqueueReplayed(value) }
    #expect(mailbox.waiting == 0)
    #expect(mailbox.enqueue(4, warningAbove: .max).report == nil)
    #expect(drainAll(&mailbox) == ["1", "2", "3", "4"])
  }

  @Test("an unbounded mailbox warns once, when it passes the threshold")
  func warnsOnce() {
    var mailbox = MailboxStateMachine<Int>(backlog: .unbounded)
    let warnings = (1...6).compactMap { mailbox.enqueue($0, warningAbove: 3).warning }
    #expect(warnings == [4])
  }

  @Test("a bounded mailbox never warns: its limit already says what happens")
  func boundedNeverWarns() {
    var mailbox = MailboxStateMachine<Int>(backlog: .dropOldest(2))
    #expect((1...6).allSatisfy { mailbox.enqueue($0, warningAbove: 1).warning == nil })
  }

  @Test("a long run of arrivals and calls, taken one by one, keeps each payload in order")
  func compacts() {
    var mailbox = MailboxStateMachine<Int>(backlog: .unbounded)
    for value in 0..<10_000 {
      _ = mailbox.enqueue(value, warningAbove: .max)
      guard case .payload(value, report: nil) = mailbox.next() else {
        Issue.record("expected \(value)")
        return
      }
    }
    #expect(mailbox.waiting == 0)
  }
}
