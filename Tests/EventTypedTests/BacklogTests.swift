import Dispatch
import EventTestSupport
import EventTyped
import Testing

@Suite("Bounded backlogs: what they drop, what they report, what they keep")
struct BacklogTests {
  /// Posts `values` while `queue` is held, then lets it go and flushes; returns what the
  /// handler saw and the drop reports.
  private func postHeld(
    _ event: Event<Int>, queue: DispatchQueue, values: ClosedRange<Int>,
    register: (Recorder<Int>) -> Subscription
  ) async -> (seen: [Int], drops: [Int], reached: [Int])? {
    let seen = Recorder<Int>()
    let drops = Recorder<Int>()
    let token = register(seen)
    let dropToken = event.drops.subscribe { drops.record($0.count) }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    let reached = values.map { event.post($0) }
    held.fire()
    guard await finishes(within: 60, { await event.flush() }) else { return nil }
    withExtendedLifetime((token, dropToken)) {}
    return (seen.values, drops.values, reached)
  }

  @Test(".dropOldest keeps the newest in order, and drops reports every other payload, coalesced")
  func dropOldestOnAQueue() async throws {
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue), backlog: .dropOldest(3))
    let result = try #require(
      await postHeld(event, queue: queue, values: 1...10) { seen in
        event.subscribe { seen.record($0) }
      })
    #expect(result.seen == [8, 9, 10])
    #expect(result.drops == [1, 6])
    #expect(result.reached == Array(repeating: 1, count: 10))
  }

  @Test(
    ".dropNewest keeps the oldest, and a refused post does not count the registration as reached"
  )
  func dropNewestOnAQueue() async throws {
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue), backlog: .dropNewest(3))
    let result = try #require(
      await postHeld(event, queue: queue, values: 1...10) { seen in
        event.subscribe { seen.record($0) }
      })
    #expect(result.seen == [1, 2, 3])
    #expect(result.drops == [1, 6])
    #expect(result.reached == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
  }

  @Test("an unbounded backlog drops nothing and keeps post order")
  func unboundedKeepsEverything() async throws {
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue))
    let result = try #require(
      await postHeld(event, queue: queue, values: 1...500) { seen in
        event.subscribe { seen.record($0) }
      })
    #expect(result.seen == Array(1...500))
    #expect(result.drops.isEmpty)
  }

  @Test("each registration has its own backlog, counted and reported on its own")
  func perRegistration() async throws {
    let slow = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(slow), backlog: .dropOldest(2))
    let other = Recorder<Int>()
    let otherToken = event.subscribe { other.record($0) }
    let result = try #require(
      await postHeld(event, queue: slow, values: 1...5) { seen in
        event.subscribe { seen.record($0) }
      })
    #expect(result.seen == [4, 5])
    #expect(other.values == [4, 5])
    #expect(result.drops == [1, 1, 2, 2])
    withExtendedLifetime(otherToken) {}
  }

  @Test("an actor's registration drops the oldest of its mailbox and reports it")
  func actorRegistration() async throws {
    let executor = QueueSerialExecutor(label: "actor")
    let actor = QueueActor<Int>(executor: executor)
    let event = Event<Int>(backlog: .dropOldest(2))
    let drops = Recorder<Int>()
    let dropToken = event.drops.subscribe { drops.record($0.count) }
    let token = event.register(actor) { actor, value in actor.handle(value) }
    let held = Signal()
    executor.queue.async { _ = held.wait(seconds: 60) }
    for value in 1...6 { event.post(value) }
    held.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    #expect(actor.seen.values == [5, 6])
    #expect(drops.values.reduce(0, +) == 4)
    withExtendedLifetime((token, dropToken)) {}
  }

  @Test("a .mainActor registration posted to from elsewhere keeps the newest, in post order")
  func mainActorRegistration() async throws {
    let event = Event<Int>(delivery: .mainActor, backlog: .dropOldest(3))
    let result = try #require(
      await postHeld(event, queue: .main, values: 1...10) { seen in
        event.subscribe { seen.record($0) }
      })
    #expect(result.seen == [8, 9, 10])
    #expect(result.drops == [1, 6])
  }

  @Test(
    "a post's main-actor handlers run in its order, however many calls each backlog holds"
  )
  func mainActorOrderAcrossRegistrations() async throws {
    let event = Event<Int>(delivery: .mainActor, backlog: .dropOldest(100))
    let order = Recorder<String>()
    let first = event.subscribe { order.record("a\($0)") }
    let held = Signal()
    DispatchQueue.main.async { _ = held.wait(seconds: 60) }
    // More than a batch waits for the first registration when the second one arrives.
    for value in 1...40 { event.post(value) }
    let second = event.subscribe { order.record("b\($0)") }
    event.post(41)
    held.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    let values = order.values
    let a41 = try #require(values.firstIndex(of: "a41"))
    let b41 = try #require(values.firstIndex(of: "b41"))
    #expect(a41 < b41)
    #expect(values.filter { $0.hasPrefix("a") } == (1...41).map { "a\($0)" })
    withExtendedLifetime((first, second)) {}
  }

  @Test("an actor's registration with .dropNewest keeps the oldest and refuses the rest")
  func actorRegistrationDropNewest() async {
    let executor = QueueSerialExecutor(label: "actor")
    let actor = QueueActor<Int>(executor: executor)
    let event = Event<Int>(backlog: .dropNewest(2))
    let token = event.register(actor) { actor, value in actor.handle(value) }
    let held = Signal()
    executor.queue.async { _ = held.wait(seconds: 60) }
    let reached = (1...5).map { event.post($0) }
    held.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    #expect(actor.seen.values == [1, 2])
    #expect(reached == [1, 1, 0, 0, 0])
    withExtendedLifetime(token) {}
  }

  @Test("a cancel during a full backlog discards what waits, and those are not drops")
  func cancelDuringFullBacklog() async {
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue), backlog: .dropOldest(3))
    let seen = Recorder<Int>()
    let drops = Recorder<Int>()
    let dropToken = event.drops.subscribe { drops.record($0.count) }
    let token = event.subscribe { seen.record($0) }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    for value in 1...10 { event.post(value) }
    token.cancel()
    held.fire()
    #expect(drain(queue, seconds: 60))
    #expect(drain(queue, seconds: 60))
    #expect(seen.values.isEmpty)
    #expect(drops.values.reduce(0, +) == 7)
    withExtendedLifetime(dropToken) {}
  }

  @Test("replayed payloads never count against a backlog")
  func replayIsNotABacklog() async {
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue), replay: .last(5), backlog: .dropOldest(1))
    for value in 1...5 { event.post(value) }
    let drops = Recorder<Int>()
    let dropToken = event.drops.subscribe { drops.record($0.count) }
    let seen = Recorder<Int>()
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    let token = event.subscribe { seen.record($0) }
    held.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    #expect(seen.values == [1, 2, 3, 4, 5])
    #expect(drops.values.isEmpty)
    withExtendedLifetime((token, dropToken)) {}
  }

  @Test(
    "with nobody observing drops, the first drop of a registration is printed once, with its site"
  )
  func unobservedDropsArePrintedOnce() async {
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue), backlog: .dropNewest(1))
    let printed = Recorder<String>()
    event.writeFlowWarnings { printed.record($0) }
    let line = #line + 1
    let token = event.subscribe { _ in }
    for _ in 0..<2 {
      let held = Signal()
      queue.async { _ = held.wait(seconds: 60) }
      for value in 1...5 { event.post(value) }
      held.fire()
      #expect(await finishes(within: 60, { await event.flush() }))
    }
    #expect(printed.count == 1)
    #expect(printed.values.first?.contains("BacklogTests.swift:\(line)") == true)
    #expect(printed.values.first?.contains(".dropNewest(1)") == true)
    withExtendedLifetime(token) {}
  }

  @Test("an unbounded backlog past EventDiagnostics.backlogWarning is reported once, with its site")
  func backlogWarning() async throws {
    let threshold = try #require(EventDiagnostics.backlogWarning)
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue))
    let printed = Recorder<String>()
    event.writeFlowWarnings { printed.record($0) }
    let line = #line + 1
    let token = event.subscribe { _ in }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    for value in 0...(threshold * 2) { event.post(value) }
    held.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    #expect(printed.count == 1)
    #expect(printed.values.first?.contains("BacklogTests.swift:\(line)") == true)
    #expect(printed.values.first?.contains("Event<Int>") == true)
    withExtendedLifetime(token) {}
  }

  @Test("a keyed event's key has the backlog, and its drops reach the keyed event's drops")
  func keyedEvent() async throws {
    let queue = DispatchQueue(label: "slow")
    let keyed = KeyedEvent<String, Int>(delivery: .queue(queue), backlog: .dropOldest(2))
    let seen = Recorder<Int>()
    let drops = Recorder<String>()
    let dropToken = keyed.drops.subscribe { key, drop in drops.record("\(key) \(drop.count)") }
    let token = keyed["a"].subscribe { seen.record($0) }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    for value in 1...6 { keyed.post(value, to: "a") }
    held.fire()
    #expect(drain(queue, seconds: 60))
    #expect(drain(queue, seconds: 60))
    #expect(seen.values == [5, 6])
    #expect(drops.values == ["a 1", "a 3"])
    withExtendedLifetime((token, dropToken)) {}
  }

  @Test("a values stream reports what its buffer drops, with where it was made")
  func valuesReportDrops() async {
    let event = Event<Int>()
    let drops = Recorder<Drop>()
    let dropToken = event.drops.subscribe { drops.record($0) }
    let line = #line + 1
    let stream = event.values(bufferingPolicy: .bufferingNewest(2))
    for value in 1...6 { event.post(value) }
    var read: [Int] = []
    for await value in stream {
      read.append(value)
      if read.count == 2 { break }
    }
    #expect(read == [5, 6])
    #expect(drops.values.map(\.count) == [1, 3])
    #expect(
      drops.values.allSatisfy { $0.fileID.hasSuffix("BacklogTests.swift") && $0.line == line })
    withExtendedLifetime(dropToken) {}
  }

  @Test("values follows the event's backlog")
  func valuesFollowTheBacklog() async {
    let event = Event<Int>(backlog: .dropNewest(2))
    let drops = Recorder<Int>()
    let dropToken = event.drops.subscribe { drops.record($0.count) }
    let stream = event.values
    for value in 1...5 { event.post(value) }
    var read: [Int] = []
    for await value in stream {
      read.append(value)
      if read.count == 2 { break }
    }
    #expect(read == [1, 2])
    #expect(drops.values.reduce(0, +) == 3)
    withExtendedLifetime(dropToken) {}
  }

  @Test("an async handler's backlog drops the oldest while a call is suspended, and reports it")
  func asyncHandler() async {
    let event = Event<Int>(backlog: .dropOldest(2))
    let seen = Recorder<Int>()
    let drops = Recorder<Int>()
    let dropToken = event.drops.subscribe { drops.record($0.count) }
    let started = Signal()
    let release = Signal()
    let token = event.subscribe { (value: Int) async in
      seen.record(value)
      if value == 1 {
        started.fire()
        _ = await release.arrival()
      }
    }
    event.post(1)
    #expect(await started.arrival())
    for value in 2...6 { event.post(value) }
    release.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    #expect(seen.values == [1, 5, 6])
    #expect(drops.values == [1, 2])
    withExtendedLifetime((token, dropToken)) {}
  }

  @Test("an async handler's .dropNewest keeps the oldest, and a refusal is not counted as reached")
  func asyncHandlerRefuses() async {
    let event = Event<Int>(backlog: .dropNewest(1))
    let started = Signal()
    let release = Signal()
    let seen = Recorder<Int>()
    let token = event.subscribe { (value: Int) async in
      seen.record(value)
      if value == 1 {
        started.fire()
        _ = await release.arrival()
      }
    }
    event.post(1)
    #expect(await started.arrival())
    let drops = Recorder<Int>()
    let dropToken = event.drops.subscribe { drops.record($0.count) }
    let reached = (2...4).map { event.post($0) }
    release.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    #expect(reached == [1, 0, 0])
    #expect(seen.values == [1, 2])
    #expect(drops.values == [1, 1])
    withExtendedLifetime(dropToken) {}
    withExtendedLifetime(token) {}
  }

  @Test("a throwing drops handler reports to drops.errors, never back to drops")
  func dropsHandlerErrorsGoToDropsErrors() async {
    struct Failed: Error {}
    let queue = DispatchQueue(label: "slow")
    let event = Event<Int>(delivery: .queue(queue), backlog: .dropNewest(1))
    let reports = Recorder<Int>()
    let failures = Recorder<String>()
    let dropToken = event.drops.subscribe { (drop: Drop) throws in
      reports.record(drop.count)
      throw Failed()
    }
    let errorToken = event.drops.errors.subscribe { failures.record("\($0.error)") }
    let token = event.subscribe { _ in }
    let held = Signal()
    queue.async { _ = held.wait(seconds: 60) }
    for value in 1...3 { event.post(value) }
    held.fire()
    #expect(await finishes(within: 60, { await event.flush() }))
    #expect(reports.values == [1, 1])
    #expect(failures.count == 2)
    #expect(event.drops.drops.observerCount == 0)
    withExtendedLifetime((dropToken, errorToken, token)) {}
  }

  @Test("a limit below 1 stops the program with a message naming it")
  func limitBelowOne() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backlog.dropOldest(0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Backlog.dropOldest(0): the limit must be at least 1"))
  }
}
