import EventCore
import EventRAII
import EventTestSupport
import Foundation
import Testing

/// A `@MainActor` screen observed through its target-action method.
@MainActor
private final class Screen: Sendable {
  let seen = Recorder<Int>()

  func show(_ note: Notification) {
    seen.record(note.userInfo?["n"] as? Int ?? -1)
  }
}

@Suite("NotificationCenter bounded backlogs: what they drop, report and keep")
struct NotificationCenterBoundedBacklogTests {
  private let center = NotificationCenter()
  private let tick = Notification.Name("NotificationCenterBoundedBacklogTests.tick")

  private func post(_ values: ClosedRange<Int>) {
    for value in values { center.post(name: tick, object: nil, userInfo: ["n": value]) }
  }

  /// Posts `values` while `queue` is held, then lets it go and flushes; returns what the
  /// observation saw and the drop reports.
  private func postHeld(
    queue: DispatchQueue, values: ClosedRange<Int>, register: (Recorder<Int>) -> Subscription
  ) async -> (seen: [Int], drops: [Drop])? {
    let seen = Recorder<Int>()
    let drops = Recorder<Drop>()
    let token = register(seen)
    let dropToken = center.onDrop { drops.record($0) }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    post(values)
    held.fire()
    guard await finishes(within: 60, { await center.flush(tick) }) else { return nil }
    withExtendedLifetime((token, dropToken)) {}
    return (seen.values, drops.values)
  }

  @Test(
    ".dropOldest keeps the newest in post order; onDrop gets every drop, coalesced, with the site")
  func dropOldestOnAQueue() async throws {
    let queue = DispatchQueue(label: "slow")
    // Inside a macro's argument, #line is the macro's line: the registration's site is this one.
    let line = #line + 1
    let result = try #require(
      await postHeld(queue: queue, values: 1...10) { seen in
        center.observe(tick, delivery: .queue(queue), backlog: .dropOldest(3)) { note in
          seen.record(note.userInfo?["n"] as? Int ?? -1)
        }
      })
    #expect(result.seen == [8, 9, 10])
    #expect(result.drops.map(\.count) == [1, 6])
    #expect(result.drops.allSatisfy { $0.line == line }, "\(result.drops)")
    #expect(
      result.drops.allSatisfy { $0.fileID.hasSuffix("NotificationCenterBoundedBacklogTests.swift") }
    )
  }

  @Test(".dropNewest keeps the oldest and reports the rest")
  func dropNewestOnAQueue() async throws {
    let queue = DispatchQueue(label: "slow")
    let result = try #require(
      await postHeld(queue: queue, values: 1...10) { seen in
        center.observe(tick, delivery: .queue(queue), backlog: .dropNewest(3)) { note in
          seen.record(note.userInfo?["n"] as? Int ?? -1)
        }
      })
    #expect(result.seen == [1, 2, 3])
    #expect(result.drops.map(\.count).reduce(0, +) == 7)
    #expect(result.drops.map(\.count) == [1, 6])
  }

  @Test("an unbounded observation drops nothing and keeps post order")
  func unboundedKeepsEverything() async throws {
    let queue = DispatchQueue(label: "slow")
    let result = try #require(
      await postHeld(queue: queue, values: 1...500) { seen in
        center.observe(tick, delivery: .queue(queue)) { note in
          seen.record(note.userInfo?["n"] as? Int ?? -1)
        }
      })
    #expect(result.seen == Array(1...500))
    #expect(result.drops.isEmpty)
  }

  @Test("each observation has its own backlog: a bounded one never drops another's calls")
  func perObservation() async throws {
    let slow = DispatchQueue(label: "slow")
    let other = Recorder<Int>()
    let otherToken = center.observe(tick, delivery: .queue(slow)) { note in
      other.record(note.userInfo?["n"] as? Int ?? -1)
    }
    let result = try #require(
      await postHeld(queue: slow, values: 1...5) { seen in
        center.observe(tick, delivery: .queue(slow), backlog: .dropOldest(2)) { note in
          seen.record(note.userInfo?["n"] as? Int ?? -1)
        }
      })
    #expect(result.seen == [4, 5])
    #expect(other.values == [1, 2, 3, 4, 5])
    #expect(result.drops.map(\.count).reduce(0, +) == 3)
    withExtendedLifetime(otherToken) {}
  }

  @Test("an actor owner's observation drops the oldest of its mailbox and reports it")
  func actorOwner() async throws {
    let executor = QueueSerialExecutor(label: "actor")
    let actor = QueueActor<Int>(executor: executor)
    let drops = Recorder<Int>()
    let dropToken = center.onDrop { drops.record($0.count) }
    let token = center.observe(tick, owner: actor, backlog: .dropOldest(2)) { actor, note in
      actor.handle(note.userInfo?["n"] as? Int ?? -1)
    }
    let held = Signal()
    executor.queue.async { _ = held.wait(seconds: 60) }
    post(1...6)
    held.fire()
    #expect(await finishes(within: 60, { await center.flush(tick) }))
    #expect(actor.seen.values == [5, 6])
    #expect(drops.values.reduce(0, +) == 4)
    withExtendedLifetime((token, dropToken)) {}
  }

  @Test("a main-actor target posted to from elsewhere keeps the newest, in post order")
  @MainActor
  func mainActorTarget() async throws {
    let screen = Screen()
    let drops = Recorder<Int>()
    let dropToken = center.onDrop { drops.record($0.count) }
    let token = center.observe(
      tick, target: screen, action: Screen.show, backlog: .dropOldest(3))
    // Posted from another thread while the main actor is held here: every call is queued.
    let center = self.center
    let tick = self.tick
    #expect(
      onOtherThread {
        for value in 1...10 { center.post(name: tick, object: nil, userInfo: ["n": value]) }
      })
    #expect(await finishes(within: 60, { await center.flush(tick) }))
    #expect(screen.seen.values == [8, 9, 10])
    #expect(drops.values.reduce(0, +) == 7)
    withExtendedLifetime((token, dropToken)) {}
  }

  @Test("a cancel during a full backlog discards what waits, and those are not drops")
  func cancelDuringAFullBacklog() async throws {
    let queue = DispatchQueue(label: "slow")
    let seen = Recorder<Int>()
    let drops = Recorder<Int>()
    let dropToken = center.onDrop { drops.record($0.count) }
    let token = center.observe(tick, delivery: .queue(queue), backlog: .dropOldest(3)) { note in
      seen.record(note.userInfo?["n"] as? Int ?? -1)
    }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    post(1...5)
    token.cancel()
    held.fire()
    #expect(await finishes(within: 60, { await center.flush(tick) }))
    #expect(drain(queue))
    #expect(seen.values.isEmpty)
    // The two drops made before the cancel, and nothing for the three it discarded.
    #expect(drops.values.reduce(0, +) == 2)
    withExtendedLifetime(dropToken) {}
  }

  @Test("drops go to the onDrop handlers of their own center only, and stop with the token")
  func dropsStayOnTheirCenter() async throws {
    let other = NotificationCenter()
    let queue = DispatchQueue(label: "slow")
    let mine = Recorder<Int>()
    let theirs = Recorder<Int>()
    let theirToken = other.onDrop { theirs.record($0.count) }
    let myToken = center.onDrop { mine.record($0.count) }
    let token = center.observe(tick, delivery: .queue(queue), backlog: .dropOldest(1)) { _ in }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    post(1...3)
    myToken.cancel()
    post(4...4)
    held.fire()
    #expect(await finishes(within: 60, { await center.flush(tick) }))
    #expect(mine.values == [1])
    #expect(theirs.values.isEmpty)
    withExtendedLifetime((token, theirToken)) {}
  }

  @Test("with no onDrop handler, the first drop of an observation is printed once, with its site")
  func unobservedDropsArePrinted() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let center = NotificationCenter()
      let name = Notification.Name("NotificationCenterBoundedBacklogTests.unobserved")
      let queue = DispatchQueue(label: "held")
      let token = center.observe(name, delivery: .queue(queue), backlog: .dropNewest(1)) { _ in }
      let held = Signal()
      queue.async { _ = held.wait() }
      for _ in 0..<10 { center.post(name: name, object: nil) }
      held.fire()
      _ = drain(queue)
      withExtendedLifetime(token) {}
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.components(separatedBy: "dropped a payload").count == 2, "\(output)")
    #expect(output.contains("NotificationCenterBoundedBacklogTests.swift:"))
    #expect(
      output.contains("NotificationCenter name NotificationCenterBoundedBacklogTests.unobserved"))
  }

  @Test("a bounded observation and its drop handlers keep neither the center nor the observer")
  func nothingKeptAlive() async {
    weak var weakCenter: NotificationCenter?
    var token: Subscription?
    var dropToken: Subscription?
    do {
      let center = NotificationCenter()
      weakCenter = center
      dropToken = center.onDrop { _ in }
      token = center.observe(tick, delivery: .queue(.main), backlog: .dropOldest(1)) { _ in }
    }
    #expect(weakCenter == nil)
    token?.cancel()
    dropToken?.cancel()
  }
}
