import EventBroadcast
import EventCore
import EventTestSupport
import Foundation
import Testing

private protocol Feed: AnyObject {
  func take(_ value: Int)
}

/// A nonisolated observer that records each call, wherever it runs.
private final class Sink: Feed, Sendable {
  let seen = Recorder<Int>()
  func take(_ value: Int) { seen.record(value) }
}

/// An actor on a queue the test can hold, which registers itself, so its calls wait in its
/// mailbox while the queue is held.
private actor HeldSink: Feed {
  let executor = QueueSerialExecutor(label: "BroadcasterBacklogTests.actor")
  nonisolated let seen = Recorder<Int>()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  nonisolated func take(_ value: Int) {
    assumeIsolated { $0.seen.record(value) }
  }

  func start(_ hub: Broadcaster) -> Subscription {
    hub.register((any Feed).self, observer: self)
  }
}

/// What a held run saw: the calls, in order, and the counts of the drop reports.
private struct Outcome: Equatable {
  var seen: [Int]
  var drops: [Int]
}

@Suite("Broadcaster bounded backlogs", .timeLimit(.minutes(1)))
struct BroadcasterBacklogTests {
  /// Notifies `values` while `queue` is held, then lets it go and flushes.
  ///
  /// - Returns: `false` if the flush did not return in time.
  private func notifyHeld(
    _ hub: Broadcaster, holding queue: DispatchQueue, values: ClosedRange<Int>
  ) async -> Bool {
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    for value in values { hub.notify((any Feed).self) { $0.take(value) } }
    held.fire()
    return await finishes(within: 60) { await hub.flush((any Feed).self) }
  }

  /// A `.queue` observer of a broadcaster with `backlog`, notified `values` while its queue is
  /// held.
  private func queued(_ backlog: Backlog, values: ClosedRange<Int>) async -> Outcome? {
    let hub = Broadcaster(backlog: backlog)
    let queue = DispatchQueue(label: "BroadcasterBacklogTests.queue")
    let sink = Sink()
    let drops = Recorder<Int>()
    let dropToken = hub.onDrop { drops.record($0.count) }
    hub.register((any Feed).self, observer: sink, delivery: .queue(queue))
    guard await notifyHeld(hub, holding: queue, values: values) else { return nil }
    withExtendedLifetime(dropToken) {}
    return Outcome(seen: sink.seen.values, drops: drops.values)
  }

  /// An actor observer of a broadcaster with `backlog`, notified `values` from off the actor
  /// while its executor is held.
  private func isolated(_ backlog: Backlog, values: ClosedRange<Int>) async -> Outcome? {
    let hub = Broadcaster(backlog: backlog)
    let sink = HeldSink()
    let drops = Recorder<Int>()
    let dropToken = hub.onDrop { drops.record($0.count) }
    let token = await sink.start(hub)
    guard await notifyHeld(hub, holding: sink.executor.queue, values: values) else { return nil }
    withExtendedLifetime((token, dropToken)) {}
    return Outcome(seen: sink.seen.values, drops: drops.values)
  }

  @Test(".dropOldest keeps a .queue observer's newest calls in order, and reports the rest")
  func dropOldestOnAQueue() async throws {
    let outcome = try #require(await queued(.dropOldest(3), values: 1...10))
    #expect(outcome == Outcome(seen: [8, 9, 10], drops: [1, 6]))
  }

  @Test(".dropNewest keeps a .queue observer's oldest calls in order, and reports the rest")
  func dropNewestOnAQueue() async throws {
    let outcome = try #require(await queued(.dropNewest(3), values: 1...10))
    #expect(outcome == Outcome(seen: [1, 2, 3], drops: [1, 6]))
  }

  @Test(".dropOldest keeps an actor observer's newest calls in order, and reports the rest")
  func dropOldestOnAnActor() async throws {
    let outcome = try #require(await isolated(.dropOldest(2), values: 1...6))
    #expect(outcome == Outcome(seen: [5, 6], drops: [1, 3]))
  }

  @Test(".dropNewest keeps an actor observer's oldest calls in order, and reports the rest")
  func dropNewestOnAnActor() async throws {
    let outcome = try #require(await isolated(.dropNewest(2), values: 1...6))
    #expect(outcome == Outcome(seen: [1, 2], drops: [1, 3]))
  }

  @Test("an unbounded backlog drops nothing and keeps notify order, on a queue and an actor")
  func unboundedKeepsEverything() async throws {
    let onQueue = try #require(await queued(.unbounded, values: 1...500))
    #expect(onQueue == Outcome(seen: Array(1...500), drops: []))
    let onActor = try #require(await isolated(.unbounded, values: 1...500))
    #expect(onActor == Outcome(seen: Array(1...500), drops: []))
  }

  @Test("a bounded .mainActor observer notified off the main actor keeps the newest calls")
  func mainActorObserver() async throws {
    let hub = Broadcaster(backlog: .dropOldest(2))
    let sink = Sink()
    let drops = Recorder<Int>()
    let dropToken = hub.onDrop { drops.record($0.count) }
    hub.register((any Feed).self, observer: sink, delivery: .mainActor)
    #expect(await notifyHeld(hub, holding: .main, values: 1...5))
    #expect(sink.seen.values == [4, 5])
    #expect(drops.values == [1, 2])
    withExtendedLifetime(dropToken) {}
  }

  @Test("a notify on the main actor never overtakes a bounded observer's queued calls")
  func mainActorNotifyKeepsOrder() async {
    let hub = Broadcaster(backlog: .dropNewest(100))
    let sink = Sink()
    hub.register((any Feed).self, observer: sink, delivery: .mainActor)
    let held = Signal()
    DispatchQueue.main.async { _ = held.wait(seconds: 60) }
    // More than one batch, so that calls still wait when the main-actor notify runs, between
    // two batches of the drain.
    for value in 1...40 { hub.notify((any Feed).self) { $0.take(value) } }
    let notified = Signal()
    DispatchQueue.main.async {
      MainActor.assumeIsolated { hub.notify((any Feed).self) { $0.take(41) } }
      notified.fire()
    }
    held.fire()
    // A flush waits for the calls queued before it: the main-actor notify must have run first.
    #expect(await notified.arrival(seconds: 60))
    #expect(await finishes(within: 60) { await hub.flush((any Feed).self) })
    #expect(sink.seen.values == Array(1...41))
  }

  @Test("a cancel during a full .queue backlog discards what waits, and those are not drops")
  func cancelOnAQueue() {
    let hub = Broadcaster(backlog: .dropOldest(3))
    let queue = DispatchQueue(label: "BroadcasterBacklogTests.cancel")
    let sink = Sink()
    let drops = Recorder<Int>()
    let dropToken = hub.onDrop { drops.record($0.count) }
    let token = hub.register((any Feed).self, observer: sink, delivery: .queue(queue))
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    for value in 1...10 { hub.notify((any Feed).self) { $0.take(value) } }
    token.cancel()
    held.fire()
    // Behind the drain, which was queued before it: it skips the 3 calls the cancel
    // discarded, and reports the 6 drops made before it that were not reported yet.
    #expect(drain(queue, seconds: 60))
    #expect(sink.seen.values.isEmpty)
    #expect(drops.values == [1, 6])
    withExtendedLifetime(dropToken) {}
  }

  @Test("an unregister during a full actor backlog discards what waits, and those are not drops")
  func unregisterOnAnActor() async {
    let hub = Broadcaster(backlog: .dropNewest(2))
    let sink = HeldSink()
    let drops = Recorder<Int>()
    let reported = Signal()
    let dropToken = hub.onDrop { drop in
      drops.record(drop.count)
      if drops.values.reduce(0, +) == 4 { reported.fire() }
    }
    let token = await sink.start(hub)
    let held = Signal()
    sink.executor.queue.async { _ = held.wait(seconds: 60) }
    for value in 1...6 { hub.notify((any Feed).self) { $0.take(value) } }
    hub.unregister((any Feed).self, observer: sink)
    held.fire()
    // The drain reports the later drops before it skips the first call it kept; a block
    // enqueued then runs once it has skipped the other too.
    #expect(await reported.arrival())
    #expect(drain(sink.executor.queue))
    #expect(sink.seen.values.isEmpty)
    #expect(drops.values == [1, 3])
    withExtendedLifetime((token, dropToken)) {}
  }

  @Test("onDrop handlers receive every report, with the registration's file and line")
  func reportsNameTheSite() async {
    let hub = Broadcaster(backlog: .dropNewest(1))
    let queue = DispatchQueue(label: "BroadcasterBacklogTests.site")
    let sink = Sink()
    let first = Recorder<Drop>()
    let second = Recorder<Drop>()
    let tokens = [hub.onDrop { first.record($0) }, hub.onDrop { second.record($0) }]
    let line = #line + 1
    hub.register((any Feed).self, observer: sink, delivery: .queue(queue))
    #expect(await notifyHeld(hub, holding: queue, values: 1...5))
    #expect(sink.seen.values == [1])
    for reports in [first.values, second.values] {
      #expect(reports.map(\.count) == [1, 3])
      #expect(
        reports.allSatisfy {
          $0.fileID.hasSuffix("BroadcasterBacklogTests.swift") && $0.line == line
        })
    }
    withExtendedLifetime(tokens) {}
  }

  @Test("with no onDrop handler, the first drop of a registration is printed once, with its site")
  func unobservedDropsArePrintedOnce() async {
    let hub = Broadcaster(backlog: .dropNewest(1))
    let queue = DispatchQueue(label: "BroadcasterBacklogTests.printed")
    let printed = Recorder<String>()
    hub.writeFlowWarnings { printed.record($0) }
    // A handler that is gone no longer observes: the drops are printed.
    hub.onDrop { _ in Issue.record("a cancelled handler was called") }.cancel()
    let sink = Sink()
    let line = #line + 1
    hub.register((any Feed).self, observer: sink, delivery: .queue(queue))
    for _ in 0..<2 {
      #expect(await notifyHeld(hub, holding: queue, values: 1...5))
    }
    #expect(sink.seen.values == [1, 1])
    #expect(printed.count == 1)
    let message = printed.values.first ?? ""
    #expect(message.contains("BroadcasterBacklogTests.swift:\(line)"))
    #expect(message.contains(".dropNewest(1)"))
    #expect(message.contains("Broadcaster protocol"))
  }

  @Test("flush waits for every call a bounded backlog kept, across batches")
  func flushWaitsForABoundedBacklog() async {
    let hub = Broadcaster(backlog: .dropNewest(100))
    let queue = DispatchQueue(label: "BroadcasterBacklogTests.flush")
    let sink = Sink()
    hub.register((any Feed).self, observer: sink, delivery: .queue(queue))
    let onQueue = await flushResult(holding: queue) {
      for value in 1...40 { hub.notify((any Feed).self) { $0.take(value) } }
    } flush: {
      await hub.flush((any Feed).self)
      return sink.seen.values
    }
    #expect(onQueue == Array(1...40))

    let actorHub = Broadcaster(backlog: .dropOldest(100))
    let actor = HeldSink()
    let token = await actor.start(actorHub)
    let onActor = await flushResult(holding: actor.executor.queue) {
      for value in 1...40 { actorHub.notify((any Feed).self) { $0.take(value) } }
    } flush: {
      await actorHub.flush((any Feed).self)
      return actor.seen.values
    }
    #expect(onActor == Array(1...40))
    withExtendedLifetime(token) {}
  }

  @Test("an unbounded backlog past EventDiagnostics.backlogWarning is reported once, with its site")
  func backlogWarning() async throws {
    let threshold = try #require(EventDiagnostics.backlogWarning)
    let hub = Broadcaster()
    let queue = DispatchQueue(label: "BroadcasterBacklogTests.warning")
    let printed = Recorder<String>()
    hub.writeFlowWarnings { printed.record($0) }
    let queued = Sink()
    let line = #line + 1
    hub.register((any Feed).self, observer: queued, delivery: .queue(queue))
    let sink = HeldSink()
    let token = await sink.start(hub)
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    let actorHeld = Signal()
    sink.executor.queue.async { _ = actorHeld.wait() }
    for value in 0...(threshold * 2) { hub.notify((any Feed).self) { $0.take(value) } }
    held.fire()
    actorHeld.fire()
    #expect(await finishes(within: 30) { await hub.flush((any Feed).self) })
    #expect(printed.count == 2)
    #expect(printed.values.contains { $0.contains("BroadcasterBacklogTests.swift:\(line)") })
    #expect(printed.values.allSatisfy { $0.contains("Broadcaster protocol") })
    #expect(queued.seen.count == threshold * 2 + 1)
    #expect(sink.seen.count == threshold * 2 + 1)
    withExtendedLifetime(token) {}
  }
}

@Suite("Broadcaster bounded backlogs: async bodies", .timeLimit(.minutes(1)))
struct BroadcasterAsyncBacklogTests {
  @Test(
    "an async body's calls wait in the observer's backlog, which drops the oldest and reports it")
  func asyncBodiesDropTheOldest() async {
    let hub = Broadcaster(backlog: .dropOldest(2))
    let sink = Sink()
    let token = hub.register((any Feed).self, observer: sink)
    let drops = Recorder<Int>()
    let dropToken = hub.onDrop { drops.record($0.count) }
    let started = Signal()
    let release = Signal()
    hub.notify((any Feed).self) { (observer: any Feed) async in
      observer.take(1)
      started.fire()
      _ = await release.arrival()
    }
    #expect(await started.arrival())
    for value in 2...6 {
      hub.notify((any Feed).self) { (observer: any Feed) async in observer.take(value) }
    }
    release.fire()
    #expect(await finishes(within: 60) { await hub.flush((any Feed).self) })
    #expect(sink.seen.values == [1, 5, 6])
    #expect(drops.values == [1, 2])
    withExtendedLifetime((token, dropToken)) {}
  }
}
