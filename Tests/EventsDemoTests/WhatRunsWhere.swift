import EventTestSupport
import Events
import Foundation
import Synchronization
import Testing

// Every registration and delivery form of every module, triggered from a background thread, from
// the main actor and from another actor, with where each handler ran: the record behind
// Docs/Events.docc/WhatRunsWhere.md. `EVENTS_WRITE_WHAT_RUNS_WHERE=1 swift test --filter
// WhatRunsWhere` rewrites Docs/what-runs-where.json; otherwise the test fails where what it sees
// differs from that file, and `python3 Docs/what-runs-where.py` renders the file into the article.
//
// Deterministic by construction, not by timing: a handler that is not running inside the
// triggering call waits (bounded) until that call has returned, so "the call returned before
// the handler ran" never depends on which thread wins; a post from the background thread is
// made while the main actor is blocked waiting for that thread, so nothing reaches the main
// actor before it returns, and a handler queued elsewhere that runs first waits for it.
//
// The harness is in WhatRunsWhereProbe.swift and WhereCase.swift; the cases, grouped by
// module or family of forms, in the WhatRunsWhere+*.swift extensions.

/// The cases, and what they share.
enum WhatRunsWhere {
  // What a case's `writtenIn` says.
  static let nonisolated = "nonisolated code"
  static let mainActorCode = "@MainActor code"
  static let anActor = "an actor"
  static let callersCode = "the caller's code"

  /// Waits, bounded, without holding the main actor.
  @MainActor static func until(_ condition: () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  static func receiver(_ name: String = "a") -> NotificationReceiver {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner(name))
    return receiver
  }

  static func fresh() -> Notification.Name {
    Notification.Name("WhatRunsWhere.\(UUID().uuidString)")
  }
}

/// Docs/what-runs-where.json, beside this package's sources.
private let recordURL = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Docs/what-runs-where.json")

/// Runs one case from one place and returns what its handler saw.
@MainActor private func run(_ whereCase: WhereCase, from place: CalledFrom) async -> WhereRecord {
  let probe = Probe(holdsUntilReturn: whereCase.holdsUntilReturn)
  let wiring = await whereCase.wire(probe)
  var finishedAtReturn = 0
  switch place {
  case .background:
    // The main actor blocks here, bounded, until the thread's call returns: nothing reaches
    // the main actor before then, whatever the scheduling.
    let result = Mutex(0)
    let trigger = wiring.trigger
    let done = onOtherThread(seconds: 20) { result.withLock { $0 = probe.call(trigger) } }
    #expect(done, "\(whereCase.id): the call from a background thread did not return")
    finishedAtReturn = result.withLock { $0 }
  case .actor:
    guard let (actor, trigger) = wiring.onActor else {
      Issue.record("\(whereCase.id): no trigger on the actor")
      break
    }
    finishedAtReturn = await actor.perform(probe, trigger)
  case .mainActor:
    if let asyncTrigger = wiring.asyncTrigger {
      finishedAtReturn = await probe.awaitCall { await asyncTrigger(MainActor.shared) }
    } else {
      finishedAtReturn = probe.call(wiring.trigger)
    }
  case .otherActor:
    let poster = PostingActor()
    if let asyncTrigger = wiring.asyncTrigger {
      finishedAtReturn = await poster.perform(probe, asyncTrigger)
    } else {
      finishedAtReturn = await poster.perform(probe, wiring.trigger)
    }
  }
  await WhatRunsWhere.until { probe.count >= whereCase.calls }
  withExtendedLifetime(wiring.keep) {}
  return WhereRecord(
    id: whereCase.id, module: whereCase.module, form: whereCase.form,
    writtenIn: whereCase.writtenIn, delivery: whereCase.delivery, trigger: whereCase.trigger,
    calledFrom: place.rawValue, observed: probe.observation(finishedAtReturn: finishedAtReturn))
}

@MainActor
@Test("What runs where: every form's handler runs where Docs/what-runs-where.json says")
func whatRunsWhere() async throws {
  var records: [WhereRecord] = []
  let cases =
    WhatRunsWhere.eventCases + WhatRunsWhere.broadcastCases + WhatRunsWhere.centerCases
    + WhatRunsWhere.conditionCases + WhatRunsWhere.waitCases + WhatRunsWhere.dropCases
    + WhatRunsWhere.recorderCases
  for whereCase in cases {
    for place in whereCase.from {
      records.append(await run(whereCase, from: place))
    }
  }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  if ProcessInfo.processInfo.environment["EVENTS_WRITE_WHAT_RUNS_WHERE"] == "1" {
    try (encoder.encode(records) + Data("\n".utf8)).write(to: recordURL)
    return
  }
  let committed = try JSONDecoder().decode([WhereRecord].self, from: Data(contentsOf: recordURL))
  let byKey = Dictionary(
    committed.map { ("\($0.id) from \($0.calledFrom)", $0) }, uniquingKeysWith: { a, _ in a })
  for record in records {
    let key = "\(record.id) from \(record.calledFrom)"
    #expect(
      byKey[key] == record,
      """
      \(key) differs from Docs/what-runs-where.json (rewrite it with \
      EVENTS_WRITE_WHAT_RUNS_WHERE=1 and re-render the article if the change is meant)
      """)
  }
  #expect(
    committed.count == records.count,
    "Docs/what-runs-where.json has \(committed.count) records; the test made \(records.count)")
}
