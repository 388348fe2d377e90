import Dispatch
import EventCore
import EventTestSupport
import EventTesting
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

/// What a handler saw of the thread it ran on, and of the call that caused it.
struct Observation: Codable, Equatable, Sendable {
  /// How many times the handler ran.
  var calls: Int
  /// Inside the triggering call, on its thread (not later, not elsewhere).
  var duringCall: Bool
  var onMainActor: Bool
  /// On the registration's `.queue(q)` queue.
  var onQueue: Bool
  /// On the observing actor (its `isolated` parameter).
  var onActor: Bool
  /// The triggering call returned only after every call of the handler had finished.
  var callWaited: Bool
}

/// One form, one place the triggering call is made from, and what was seen there.
struct WhereRecord: Codable, Equatable, Sendable {
  var id: String
  var module: String
  var form: String
  var writtenIn: String
  var delivery: String
  var trigger: String
  var calledFrom: String
  var observed: Observation
}

private let queueKey = DispatchSpecificKey<Int>()
private let nextProbeID = Mutex(0)
private let inCallKey = "WhatRunsWhere.inCall"

/// Records where its handler runs. Each case has a probe of its own.
final class Probe: Sendable {
  let id: Int
  /// A serial queue for `.queue(q)` registrations, marked so that a handler can tell it is on it.
  let queue: DispatchQueue
  /// Whether handlers not inside the call wait for it to return (not for `send`, which waits).
  let holdsUntilReturn: Bool
  private let returned = DispatchGroup()
  private let seen = Mutex<[Observation]>([])
  private let finished = Mutex(0)
  /// The task of an awaited triggering call while it runs: a handler in that task is inside it
  /// (a `Task` the call starts inherits task-locals, so they cannot tell).
  private let awaitingTask = Mutex<Int?>(nil)

  init(holdsUntilReturn: Bool) {
    id = nextProbeID.withLock {
      $0 += 1
      return $0
    }
    queue = DispatchQueue(label: "what-runs-where.q")
    queue.setSpecific(key: queueKey, value: id)
    self.holdsUntilReturn = holdsUntilReturn
    returned.enter()
  }

  /// Called by a handler: records where it runs, then, unless it runs inside the call, waits
  /// for the call to return.
  func hit(onActor: Bool = false) {
    let marks = Thread.current.threadDictionary
    // A thread mark for a synchronous call; for an awaited one, whose thread may go on to other
    // work once it suspends, its task instead.
    let task = withUnsafeCurrentTask { $0?.hashValue }
    let during =
      (marks[inCallKey] as? Int) == id || (task != nil && task == awaitingTask.withLock { $0 })
    let observation = Observation(
      calls: 1, duringCall: during, onMainActor: MainActorDetection.isOnMainActor,
      onQueue: DispatchQueue.getSpecific(key: queueKey) == id, onActor: onActor,
      callWaited: false)
    seen.withLock { $0.append(observation) }
    if !during && holdsUntilReturn {
      // A call that waited for this handler would never return: the bound ends the wait, and
      // `callWaited` then says so.
      _ = returned.wait(timeout: .now() + 20)
    }
    finished.withLock { $0 += 1 }
  }

  /// Runs the triggering call with the current thread marked as inside it.
  func call(_ body: () -> Void) -> Int {
    mark()
    body()
    return unmark()
  }

  /// Runs an awaited triggering call with its task marked as inside it.
  func awaitCall(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> Void
  ) async -> Int {
    let task = withUnsafeCurrentTask { $0?.hashValue }
    awaitingTask.withLock { $0 = task }
    await body()
    awaitingTask.withLock { $0 = nil }
    return returnedNow()
  }

  private func mark() {
    Thread.current.threadDictionary[inCallKey] = id
  }

  private func unmark() -> Int {
    Thread.current.threadDictionary[inCallKey] = nil
    return returnedNow()
  }

  /// Ends the call: handlers queued elsewhere may go on. Returns how many handlers had
  /// finished by then.
  func returnedNow() -> Int {
    let done = finished.withLock { $0 }
    returned.leave()
    return done
  }

  var count: Int { finished.withLock { $0 } }

  func observation(finishedAtReturn: Int) -> Observation {
    let all = seen.withLock { $0 }
    guard var first = all.first else {
      return Observation(
        calls: 0, duringCall: false, onMainActor: false,
        onQueue: false, onActor: false, callWaited: false)
    }
    // Every call of one handler runs in the same place; a form where they did not would show
    // as a difference in `calls` against the record.
    first.calls = all.filter { $0 == all[0] }.count
    first.callWaited = finishedAtReturn == all.count
    return first
  }
}

/// What a case keeps alive while it runs, and the call that triggers its handler.
struct Wiring {
  var keep: [Any]
  var trigger: @Sendable () -> Void
  /// A trigger that must be awaited (`send`, `verified(after:)`), made on the actor it is given:
  /// the main actor or another actor, never a bare thread.
  var asyncTrigger: (@Sendable (isolated any Actor) async -> Void)? = nil
  /// The observing actor, and the trigger as its own code makes it (`#isolation` is the actor).
  var onActor: (ProbeActor, @Sendable (isolated ProbeActor) -> Void)? = nil
}

enum CalledFrom: String, CaseIterable {
  case background = "a background thread"
  case mainActor = "the main actor"
  /// An actor that is neither the main actor nor the handler's.
  case otherActor = "another actor"
  case actor = "the observing actor"
}

struct WhereCase {
  var id: String
  var module: String
  var form: String
  var writtenIn: String
  var delivery: String
  /// The call that makes the handler run.
  var trigger: String
  var calls = 1
  var holdsUntilReturn = true
  var from: [CalledFrom] = [.background, .mainActor, .otherActor]
  var wire: @MainActor (Probe) async -> Wiring
}

// MARK: - Observers

protocol Ping { func ping() }
protocol PingStore: Actor { func record() }

/// A `Sendable` observer, registered from nonisolated code.
final class PlainObserver: Ping, Sendable {
  let probe: Probe
  init(_ probe: Probe) { self.probe = probe }
  func show(_ value: Int) { probe.hit() }
  func ping() { probe.hit() }
  func note(_ notification: Notification) { probe.hit() }
}

/// A screen: its state is the main actor's.
@MainActor final class ProbeScreen {
  let probe: Probe
  init(_ probe: Probe) { self.probe = probe }
  func show(_ value: Int) { probe.hit() }
  func note(_ notification: Notification) { probe.hit() }
}

actor ProbeActor: PingStore, Ping {
  let probe: Probe
  init(_ probe: Probe) { self.probe = probe }
  func record() { probe.hit(onActor: true) }
  /// A nonisolated witness that reaches the actor with `assumeIsolated`, which stops the
  /// program off the actor: the broadcaster must call it there.
  nonisolated func ping() { assumeIsolated { $0.record() } }

  /// Registers itself from its own code: the registration takes the actor's isolation.
  func register(on hub: Broadcaster) -> Subscription {
    hub.register((any Ping).self, observer: self)
  }

  /// Makes the triggering call in the actor's own code.
  func perform(_ probe: Probe, _ body: @Sendable (isolated ProbeActor) -> Void) -> Int {
    probe.call { body(self) }
  }
}

/// An actor that makes the triggering call and observes nothing: neither the main actor nor
/// any handler's.
actor PostingActor {
  /// State of the actor's own, which `verify`'s closures use, as an actor's code would.
  private var worked = 0

  /// Waits for `receiver` with a `work` closure written in this actor's code; each completes
  /// the set itself, so the wait ends.
  func verify(_ form: WaitForm, _ receiver: NotificationReceiver, _ probe: Probe) async {
    // `onActor`: the closure uses the actor's state synchronously, which compiles only if it
    // runs on the actor.
    switch form {
    case .sync:
      await receiver.verified {
        worked += 1
        probe.hit(onActor: true)
        _ = receiver.check("a")
      }
    case .timeout:
      try? await receiver.verified(timeout: .seconds(20)) {
        worked += 1
        probe.hit(onActor: true)
        _ = receiver.check("a")
      }
    case .async:
      await receiver.verified { () async in
        worked += 1
        probe.hit(onActor: true)
        _ = receiver.check("a")
      }
    case .asyncTimeout:
      try? await receiver.verified(timeout: .seconds(20)) { () async in
        worked += 1
        probe.hit(onActor: true)
        _ = receiver.check("a")
      }
    }
  }

  func perform(_ probe: Probe, _ body: @Sendable () -> Void) -> Int {
    probe.call(body)
  }

  func perform(_ probe: Probe, _ body: @Sendable (isolated any Actor) async -> Void) async -> Int {
    await probe.awaitCall { await body(self) }
  }
}

/// The probe a type-level (static) function reports to.
private let staticProbe = Mutex<Probe?>(nil)

enum StaticObserver {
  static func show(_ value: Int) { staticProbe.withLock { $0 }?.hit() }
}

/// Tokens that a trigger makes (a registration as the trigger) and the case keeps.
final class TokenBox: Sendable {
  private let tokens = Mutex<[Subscription]>([])
  func keep(_ token: Subscription) { tokens.withLock { $0.append(token) } }
}

/// Registrations written in nonisolated code: their closures are nonisolated.
enum Nonisolated {
  static func subscribe(_ event: Event<Int>, _ probe: Probe) -> Subscription {
    event.subscribe { _ in probe.hit() }
  }
  static func subscribeOnce(_ event: Event<Int>, _ probe: Probe) -> Subscription {
    event.subscribeOnce { _ in probe.hit() }
  }
  static func register(_ event: Event<Int>, _ observer: PlainObserver) -> Subscription {
    event.register(observer) { observer, value in observer.show(value) }
  }
  static func registerFunction(_ event: Event<Int>, _ observer: PlainObserver) -> Subscription {
    event.register(observer, function: PlainObserver.show)
  }
  static func registerType(_ event: Event<Int>) -> Subscription {
    event.register(StaticObserver.self, function: StaticObserver.show)
  }
  static func registerActor(_ event: Event<Int>, _ actor: ProbeActor) -> Subscription {
    event.register(actor) { me, _ in me.record() }
  }
  static func throwing(_ event: Event<Int>, _ probe: Probe) -> [Subscription] {
    struct Failed: Error {}
    return [
      event.subscribe { _ throws in throw Failed() },
      event.errors.subscribe { _ in probe.hit() },
    ]
  }
  static func subscribeAsync(_ event: Event<Int>, _ probe: Probe) -> Subscription {
    event.subscribe { _ async in probe.hit() }
  }
  static func onObservedChange(
    _ event: Event<Int>, _ probe: Probe, when value: Bool = true
  ) -> Subscription {
    event.onObservedChange { observed in if observed == value { probe.hit() } }
  }
  static func reentrant(_ event: Event<Int>, _ probe: Probe) -> [Subscription] {
    [
      event.subscribe { value in if value == 1 { event.post(2) } },
      event.subscribe { value in if value == 2 { probe.hit() } },
    ]
  }
  static func subscribe(_ channel: KeyedEvent<Int, Int>.Channel, _ probe: Probe) -> Subscription {
    channel.subscribe { _ in probe.hit() }
  }
  static func subscribeAll(_ event: KeyedEvent<Int, Int>, _ probe: Probe) -> Subscription {
    event.all.subscribe { _ in probe.hit() }
  }
  static func register(
    _ hub: Broadcaster, _ observer: PlainObserver, delivery: Delivery?
  ) -> Subscription {
    guard let delivery else { return hub.register((any Ping).self, observer: observer) }
    return hub.register((any Ping).self, observer: observer, delivery: delivery)
  }
  static func register(_ hub: Broadcaster, _ store: ProbeActor) -> Subscription {
    hub.register((any PingStore).self, observer: store)
  }
  static func observe(
    _ center: NotificationCenter, _ name: Notification.Name, _ probe: Probe, delivery: Delivery
  ) -> Subscription {
    center.observe(name, delivery: delivery) { _ in probe.hit() }
  }
  static func observe(
    _ center: NotificationCenter, _ name: Notification.Name, owner: PlainObserver
  ) -> Subscription {
    center.observe(name, owner: owner) { owner, note in owner.note(note) }
  }
  static func observe(
    _ center: NotificationCenter, _ name: Notification.Name, target: PlainObserver
  ) -> Subscription {
    center.observe(name, target: target, action: PlainObserver.note)
  }
  static func observe(
    _ center: NotificationCenter, _ name: Notification.Name, actor: ProbeActor
  ) -> Subscription {
    center.observe(name, owner: actor) { me, _ in me.record() }
  }
  static func observeOnce(
    _ center: NotificationCenter, _ name: Notification.Name, _ probe: Probe
  ) -> Subscription {
    center.observeOnce(name) { _ in probe.hit() }
  }
  static func onVerified(_ receiver: NotificationReceiver, _ probe: Probe) -> Subscription {
    receiver.onVerified { probe.hit() }
  }
  static func onIgnored(_ receiver: NotificationReceiver, _ probe: Probe) -> Subscription {
    receiver.onIgnored { _ in probe.hit() }
  }
  static func onArrival(_ receiver: NotificationReceiver, _ probe: Probe) -> Subscription {
    receiver.onArrival { _ in probe.hit() }
  }

  // The drop reports of a `.queue(q)` registration: each handler reports only the report of
  // `count` drops, the one its case is about.
  static func subscribeSilently(_ event: Event<Int>) -> Subscription {
    event.subscribe { _ in }
  }
  static func drops(_ event: Event<Int>, _ probe: Probe, count: Int) -> Subscription {
    event.drops.subscribe { drop in if drop.count == count { probe.hit() } }
  }
  static func subscribeSilently(_ channel: KeyedEvent<Int, Int>.Channel) -> Subscription {
    channel.subscribe { _ in }
  }
  static func drops(_ event: KeyedEvent<Int, Int>, _ probe: Probe, count: Int) -> Subscription {
    event.drops.subscribe { report in if report.1.count == count { probe.hit() } }
  }
  static func register(_ hub: Broadcaster, _ observer: SilentObserver, on queue: DispatchQueue)
    -> Subscription
  {
    hub.register((any Ping).self, observer: observer, delivery: .queue(queue))
  }
  static func onDrop(_ hub: Broadcaster, _ probe: Probe, count: Int) -> Subscription {
    hub.onDrop { drop in if drop.count == count { probe.hit() } }
  }
  static func observeSilently(
    _ center: NotificationCenter, _ name: Notification.Name, on queue: DispatchQueue
  ) -> Subscription {
    center.observe(name, delivery: .queue(queue), backlog: .dropOldest(1)) { _ in }
  }
  static func onDrop(_ center: NotificationCenter, _ probe: Probe, count: Int) -> Subscription {
    center.onDrop { drop in if drop.count == count { probe.hit() } }
  }

  /// Waits for the set in a task off any actor, then reports.
  static func afterVerified(
    _ receiver: NotificationReceiver, _ probe: Probe, waiting: Flag
  ) -> Task<Void, Never> {
    Task.detached {
      await receiver.verified(after: { waiting.set() })
      probe.hit()
    }
  }
}

/// An observer whose calls are not what its case records.
final class SilentObserver: Ping, Sendable {
  func ping() {}
}

/// The forms of `verified` that take a `work` closure.
enum WaitForm: Sendable {
  case sync, timeout, async, asyncTimeout
}

/// Waits for `receiver` with a `work` closure written in `@MainActor` code; each completes the
/// set itself, so the wait ends.
@MainActor func verifyOnMainActor(
  _ form: WaitForm, _ receiver: NotificationReceiver, _ probe: Probe
) async {
  switch form {
  case .sync:
    await receiver.verified {
      probe.hit()
      _ = receiver.check("a")
    }
  case .timeout:
    try? await receiver.verified(timeout: .seconds(20)) {
      probe.hit()
      _ = receiver.check("a")
    }
  case .async:
    await receiver.verified { () async in
      probe.hit()
      _ = receiver.check("a")
    }
  case .asyncTimeout:
    try? await receiver.verified(timeout: .seconds(20)) { () async in
      probe.hit()
      _ = receiver.check("a")
    }
  }
}

/// A flag that a task sets and the test waits for.
final class Flag: Sendable {
  private let value = Mutex(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

/// Holds a serial queue busy, bounded, so that the calls queued behind it wait and a bounded
/// backlog drops; the case's trigger releases it.
final class QueueBlock: Sendable {
  private let released = Signal()
  init(_ queue: DispatchQueue) {
    let released = released
    queue.async { _ = released.wait(seconds: 20) }
  }
  func release() { released.fire() }
}

/// Waits, bounded, without holding the main actor.
@MainActor private func until(_ condition: () -> Bool) async {
  let deadline = ContinuousClock.now + .seconds(20)
  while !condition() && ContinuousClock.now < deadline {
    try? await Task.sleep(for: .milliseconds(2))
  }
}

private func receiver(_ name: String = "a") -> NotificationReceiver {
  let receiver = NotificationReceiver()
  receiver.add(NotificationConditioner(name))
  return receiver
}

private func fresh() -> Notification.Name {
  Notification.Name("WhatRunsWhere.\(UUID().uuidString)")
}

// MARK: - The cases

private let nonisolated = "nonisolated code"
private let mainActorCode = "@MainActor code"
private let anActor = "an actor"
private let callersCode = "the caller's code"

@MainActor private var eventCases: [WhereCase] {
  func subscribe(_ delivery: DeliveryKind, _ name: String) -> WhereCase {
    WhereCase(
      id: "event.subscribe.\(name)", module: "EventTyped", form: "`subscribe { … }`",
      writtenIn: nonisolated, delivery: "`\(name)`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>(delivery: delivery == .queue ? .queue(probe.queue) : delivery.value)
      let token = Nonisolated.subscribe(event, probe)
      return Wiring(keep: [event, token]) { _ = event.post(1) }
    }
  }
  func isolatedSubscribe(_ delivery: DeliveryKind, _ name: String) -> WhereCase {
    WhereCase(
      id: "event.subscribe.isolated.\(name)", module: "EventTyped", form: "`subscribe { … }`",
      writtenIn: mainActorCode, delivery: "`\(name)`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>(delivery: delivery == .queue ? .queue(probe.queue) : delivery.value)
      let token = event.subscribe { _ in probe.hit() }
      return Wiring(keep: [event, token]) { _ = event.post(1) }
    }
  }
  return [
    subscribe(.synchronous, ".synchronous"),
    subscribe(.queue, ".queue(q)"),
    subscribe(.mainActor, ".mainActor"),
    isolatedSubscribe(.synchronous, ".synchronous"),
    isolatedSubscribe(.queue, ".queue(q)"),
    WhereCase(
      id: "event.subscribeOnce", module: "EventTyped", form: "`subscribeOnce { … }`",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let token = Nonisolated.subscribeOnce(event, probe)
      return Wiring(keep: [event, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.subscribeOnce.isolated", module: "EventTyped", form: "`subscribeOnce { … }`",
      writtenIn: mainActorCode, delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let token = event.subscribeOnce { _ in probe.hit() }
      return Wiring(keep: [event, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.register.handler", module: "EventTyped",
      form: "`register(observer) { observer, value in … }`", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let observer = PlainObserver(probe)
      let token = Nonisolated.register(event, observer)
      return Wiring(keep: [event, observer, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.register.handler.isolated", module: "EventTyped",
      form: "`register(observer) { observer, value in … }`", writtenIn: mainActorCode,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let screen = ProbeScreen(probe)
      let token = event.register(screen) { screen, value in screen.show(value) }
      return Wiring(keep: [event, screen, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.register.function", module: "EventTyped",
      form: "`register(observer, function: Type.method)`", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let observer = PlainObserver(probe)
      let token = Nonisolated.registerFunction(event, observer)
      return Wiring(keep: [event, observer, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.register.function.mainActor", module: "EventTyped",
      form: "`register(screen, function: Screen.method)`, a `@MainActor` method",
      writtenIn: mainActorCode, delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let screen = ProbeScreen(probe)
      let token = event.register(screen, function: ProbeScreen.show)
      return Wiring(keep: [event, screen, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.register.type", module: "EventTyped",
      form: "`register(Type.self, function: Type.staticMethod)`", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      staticProbe.withLock { $0 = probe }
      let event = Event<Int>()
      let token = Nonisolated.registerType(event)
      return Wiring(keep: [event, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.register.actor", module: "EventTyped",
      form: "`register(actor) { me, value in … }`", writtenIn: anActor,
      delivery: "`.synchronous`", trigger: "`post`",
      from: [.background, .mainActor, .otherActor, .actor]
    ) { probe in
      let event = Event<Int>()
      let actor = ProbeActor(probe)
      let token = Nonisolated.registerActor(event, actor)
      return Wiring(
        keep: [event, actor, token], trigger: { _ = event.post(1) },
        onActor: (actor, { _ in _ = event.post(1) }))
    },
    WhereCase(
      id: "event.errors", module: "EventTyped",
      form: "`errors.subscribe { … }`, for a throwing `subscribe`", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let tokens = Nonisolated.throwing(event, probe)
      return Wiring(keep: [event, tokens]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.subscribe.async", module: "EventTyped", form: "`subscribe { value async in … }`",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let token = Nonisolated.subscribeAsync(event, probe)
      return Wiring(keep: [event, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.subscribe.async.isolated", module: "EventTyped",
      form: "`subscribe { value async in … }`", writtenIn: mainActorCode,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let token = event.subscribe { _ async in probe.hit() }
      return Wiring(keep: [event, token]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.values", module: "EventTyped",
      form: "`for await value in event.values`, in a detached task", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let task = Task.detached {
        for await _ in event.values {
          probe.hit()
          break
        }
      }
      await until { event.isObserved }
      return Wiring(keep: [event, task]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.next.mainActor", module: "EventTyped",
      form: "The code after `try await event.next()`", writtenIn: mainActorCode,
      delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let task = Task { @MainActor in
        _ = try await event.next(timeout: .seconds(20))
        probe.hit()
      }
      await until { event.isObserved }
      return Wiring(keep: [event, task]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.next.detached", module: "EventTyped",
      form: "The code after `try await event.next()`, in a detached task",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let task = Task.detached {
        _ = try await event.next(timeout: .seconds(20))
        probe.hit()
      }
      await until { event.isObserved }
      return Wiring(keep: [event, task]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.onObservedChange", module: "EventTyped", form: "`onObservedChange { … }`",
      writtenIn: nonisolated, delivery: "—", trigger: "The first `subscribe`"
    ) { probe in
      let event = Event<Int>()
      let token = Nonisolated.onObservedChange(event, probe)
      let tokens = TokenBox()
      return Wiring(keep: [event, token, tokens]) { tokens.keep(event.subscribe { _ in }) }
    },
    WhereCase(
      id: "event.onObservedChange.mainActorCode", module: "EventTyped",
      form: "`onObservedChange { … }`", writtenIn: mainActorCode, delivery: "—",
      trigger: "The first `subscribe`"
    ) { probe in
      let event = Event<Int>()
      // A plain `@Sendable` closure: written here, it still takes no isolation.
      let token = event.onObservedChange { observed in if observed { probe.hit() } }
      let tokens = TokenBox()
      return Wiring(keep: [event, token, tokens]) { tokens.keep(event.subscribe { _ in }) }
    },
    WhereCase(
      id: "event.onObservedChange.cancel", module: "EventTyped", form: "`onObservedChange { … }`",
      writtenIn: nonisolated, delivery: "—", trigger: "The last `cancel()`"
    ) { probe in
      let event = Event<Int>()
      let subscription = event.subscribe { _ in }
      let token = Nonisolated.onObservedChange(event, probe, when: false)
      return Wiring(keep: [event, token]) { subscription.cancel() }
    },
    WhereCase(
      id: "event.replay", module: "EventTyped",
      form: "`subscribe { … }` on `Event(replay: .latest)`, receiving the replay",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "`subscribe` itself"
    ) { probe in
      let event = Event<Int>(replay: .latest)
      event.post(1)
      let tokens = TokenBox()
      return Wiring(keep: [event, tokens]) { tokens.keep(Nonisolated.subscribe(event, probe)) }
    },
    WhereCase(
      id: "event.gate", module: "EventTyped",
      form: "`subscribe { … }`, for a post held by a closed `Gate`", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`gate.open()`"
    ) { probe in
      let event = Event<Int>()
      let gate = Gate()
      let token = Nonisolated.subscribe(event, probe)
      event.post(1, when: gate)
      return Wiring(keep: [event, gate, token]) { gate.open() }
    },
    WhereCase(
      id: "event.reentrancy.queued", module: "EventTyped",
      form: "`subscribe { … }`, for a post made by a handler, on `Event(reentrancy: .queued)`",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "The outer `post`"
    ) { probe in
      let event = Event<Int>(reentrancy: .queued)
      let tokens = Nonisolated.reentrant(event, probe)
      return Wiring(keep: [event, tokens]) { _ = event.post(1) }
    },
    WhereCase(
      id: "event.send.queue", module: "EventTyped", form: "`subscribe { … }`",
      writtenIn: nonisolated, delivery: "`.queue(q)`", trigger: "`await send`",
      holdsUntilReturn: false, from: [.mainActor, .otherActor]
    ) { probe in
      let event = Event<Int>(delivery: .queue(probe.queue))
      let token = Nonisolated.subscribe(event, probe)
      return Wiring(keep: [event, token], trigger: {}) { caller in
        _ = await event.send(1, isolation: caller)
      }
    },
    WhereCase(
      id: "event.send.isolated", module: "EventTyped", form: "`subscribe { … }`",
      writtenIn: mainActorCode, delivery: "`.synchronous`", trigger: "`await send`",
      holdsUntilReturn: false, from: [.mainActor, .otherActor]
    ) { probe in
      let event = Event<Int>()
      let token = event.subscribe { _ in probe.hit() }
      return Wiring(keep: [event, token], trigger: {}) { caller in
        _ = await event.send(1, isolation: caller)
      }
    },
    WhereCase(
      id: "keyed.subscribe", module: "EventTyped", form: "`events[key].subscribe { … }`",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "`post(_:to:)`"
    ) { probe in
      let event = KeyedEvent<Int, Int>()
      let token = Nonisolated.subscribe(event[7], probe)
      return Wiring(keep: [event, token]) { _ = event.post(1, to: 7) }
    },
    WhereCase(
      id: "keyed.subscribe.isolated", module: "EventTyped", form: "`events[key].subscribe { … }`",
      writtenIn: mainActorCode, delivery: "`.synchronous`", trigger: "`post(_:to:)`"
    ) { probe in
      let event = KeyedEvent<Int, Int>()
      let token = event[7].subscribe { _ in probe.hit() }
      return Wiring(keep: [event, token]) { _ = event.post(1, to: 7) }
    },
    WhereCase(
      id: "keyed.all", module: "EventTyped", form: "`events.all.subscribe { … }`",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "`post(_:to:)`"
    ) { probe in
      let event = KeyedEvent<Int, Int>()
      let token = Nonisolated.subscribeAll(event, probe)
      return Wiring(keep: [event, token]) { _ = event.post(1, to: 7) }
    },
  ]
}

/// The deliveries a case is made with (`Delivery` has no equality to switch on).
enum DeliveryKind: Equatable {
  case synchronous, queue, mainActor
  var value: Delivery {
    switch self {
    case .synchronous: .synchronous
    case .mainActor: .mainActor
    case .queue: fatalError("a queue delivery needs its probe's queue")
    }
  }
}

@MainActor private var broadcastCases: [WhereCase] {
  func register(_ delivery: DeliveryKind?, _ name: String) -> WhereCase {
    WhereCase(
      id: "broadcaster.register.\(name)", module: "EventBroadcast",
      form: delivery == nil
        ? "`register(P.self, observer:)`" : "`register(P.self, observer:, delivery:)`",
      writtenIn: nonisolated, delivery: "`\(name)`", trigger: "`notify { $0.method() }`"
    ) { probe in
      let hub = Broadcaster()
      let observer = PlainObserver(probe)
      let chosen: Delivery? =
        switch delivery {
        case nil: nil
        case .queue?: .queue(probe.queue)
        case let other?: other.value
        }
      let token = Nonisolated.register(hub, observer, delivery: chosen)
      return Wiring(keep: [hub, observer, token]) { hub.notify((any Ping).self) { $0.ping() } }
    }
  }
  return [
    register(nil, ".synchronous"),
    register(.queue, ".queue(q)"),
    register(.mainActor, ".mainActor"),
    WhereCase(
      id: "broadcaster.register.isolated", module: "EventBroadcast",
      form: "`register(P.self, observer:)`", writtenIn: mainActorCode,
      delivery: "`.synchronous`", trigger: "`notify { $0.method() }`"
    ) { probe in
      let hub = Broadcaster()
      let observer = PlainObserver(probe)
      let token = hub.register((any Ping).self, observer: observer)
      return Wiring(keep: [hub, observer, token]) { hub.notify((any Ping).self) { $0.ping() } }
    },
    WhereCase(
      id: "broadcaster.notify.mainActorBody", module: "EventBroadcast",
      form: "`register(P.self, observer:)`, notified with a `@MainActor` body",
      writtenIn: nonisolated, delivery: "`.synchronous`",
      trigger: "`notify { @MainActor in $0.method() }`"
    ) { probe in
      let hub = Broadcaster()
      let observer = PlainObserver(probe)
      let token = Nonisolated.register(hub, observer, delivery: nil)
      return Wiring(keep: [hub, observer, token]) {
        hub.notify((any Ping).self) { @MainActor in $0.ping() }
      }
    },
    WhereCase(
      id: "broadcaster.register.actor", module: "EventBroadcast",
      form: "`register(P.self, observer: self)` in an actor's own code", writtenIn: anActor,
      delivery: "`.synchronous`", trigger: "`notify { $0.method() }`",
      from: [.background, .mainActor, .otherActor, .actor]
    ) { probe in
      let hub = Broadcaster()
      let actor = ProbeActor(probe)
      let token = await actor.register(on: hub)
      return Wiring(
        keep: [hub, actor, token], trigger: { hub.notify((any Ping).self) { $0.ping() } },
        onActor: (actor, { _ in hub.notify((any Ping).self) { $0.ping() } }))
    },
    WhereCase(
      id: "broadcaster.notify.async", module: "EventBroadcast",
      form: "An actor's `register(P.self, observer:)`, notified with an async body",
      writtenIn: nonisolated, delivery: "`.synchronous`",
      trigger: "`notify { await $0.method() }`"
    ) { probe in
      let hub = Broadcaster()
      let store = ProbeActor(probe)
      let token = Nonisolated.register(hub, store)
      return Wiring(keep: [hub, store, token]) {
        hub.notify((any PingStore).self) { await $0.record() }
      }
    },
  ]
}

@MainActor private var centerCases: [WhereCase] {
  func observe(_ delivery: DeliveryKind, _ name: String) -> WhereCase {
    WhereCase(
      id: "center.observe.\(name)", module: "EventRAII", form: "`observe(name) { … }`",
      writtenIn: nonisolated, delivery: "`\(name)`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let chosen: Delivery = delivery == .queue ? .queue(probe.queue) : delivery.value
      let token = Nonisolated.observe(center, name, probe, delivery: chosen)
      return Wiring(keep: [center, token]) { center.post(name: name, object: nil) }
    }
  }
  return [
    observe(.synchronous, ".synchronous"),
    observe(.queue, ".queue(q)"),
    observe(.mainActor, ".mainActor"),
    WhereCase(
      id: "center.observe.isolated", module: "EventRAII", form: "`observe(name) { … }`",
      writtenIn: mainActorCode, delivery: "`.synchronous`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let token = center.observe(name) { _ in probe.hit() }
      return Wiring(keep: [center, token]) { center.post(name: name, object: nil) }
    },
    WhereCase(
      id: "center.observe.owner", module: "EventRAII",
      form: "`observe(name, owner:) { owner, note in … }`", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let owner = PlainObserver(probe)
      let token = Nonisolated.observe(center, name, owner: owner)
      return Wiring(keep: [center, owner, token]) { center.post(name: name, object: nil) }
    },
    WhereCase(
      id: "center.observe.owner.isolated", module: "EventRAII",
      form: "`observe(name, owner:) { owner, note in … }`", writtenIn: mainActorCode,
      delivery: "`.synchronous`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let screen = ProbeScreen(probe)
      let token = center.observe(name, owner: screen) { screen, note in screen.note(note) }
      return Wiring(keep: [center, screen, token]) { center.post(name: name, object: nil) }
    },
    WhereCase(
      id: "center.observe.target", module: "EventRAII",
      form: "`observe(name, target:, action: Type.method)`", writtenIn: nonisolated,
      delivery: "`.synchronous`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let target = PlainObserver(probe)
      let token = Nonisolated.observe(center, name, target: target)
      return Wiring(keep: [center, target, token]) { center.post(name: name, object: nil) }
    },
    WhereCase(
      id: "center.observe.target.mainActor", module: "EventRAII",
      form: "`observe(name, target: screen, action: Screen.method)`, a `@MainActor` method",
      writtenIn: mainActorCode, delivery: "`.synchronous`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let screen = ProbeScreen(probe)
      let token = center.observe(name, target: screen, action: ProbeScreen.note)
      return Wiring(keep: [center, screen, token]) { center.post(name: name, object: nil) }
    },
    WhereCase(
      id: "center.observe.actor", module: "EventRAII",
      form: "`observe(name, owner: actor) { me, note in … }`", writtenIn: anActor,
      delivery: "`.synchronous`", trigger: "`center.post`",
      from: [.background, .mainActor, .otherActor, .actor]
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let actor = ProbeActor(probe)
      let token = Nonisolated.observe(center, name, actor: actor)
      return Wiring(
        keep: [center, actor, token], trigger: { center.post(name: name, object: nil) },
        onActor: (actor, { _ in center.post(name: name, object: nil) }))
    },
    WhereCase(
      id: "center.observeOnce", module: "EventRAII", form: "`observeOnce(name) { … }`",
      writtenIn: nonisolated, delivery: "`.synchronous`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let token = Nonisolated.observeOnce(center, name, probe)
      return Wiring(keep: [center, token]) { center.post(name: name, object: nil) }
    },
    WhereCase(
      id: "center.observeOnce.isolated", module: "EventRAII", form: "`observeOnce(name) { … }`",
      writtenIn: mainActorCode, delivery: "`.synchronous`", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let token = center.observeOnce(name) { _ in probe.hit() }
      return Wiring(keep: [center, token]) { center.post(name: name, object: nil) }
    },
  ]
}

@MainActor private var conditionCases: [WhereCase] {
  [
    WhereCase(
      id: "receiver.onVerified", module: "EventConditions", form: "`onVerified { … }`",
      writtenIn: nonisolated, delivery: "—", trigger: "`check(name)`"
    ) { probe in
      let receiver = receiver()
      let token = Nonisolated.onVerified(receiver, probe)
      return Wiring(keep: [receiver, token]) { _ = receiver.check("a") }
    },
    WhereCase(
      id: "receiver.onVerified.isolated", module: "EventConditions", form: "`onVerified { … }`",
      writtenIn: mainActorCode, delivery: "—", trigger: "`check(name)`"
    ) { probe in
      let receiver = receiver()
      let token = receiver.onVerified { probe.hit() }
      return Wiring(keep: [receiver, token]) { _ = receiver.check("a") }
    },
    WhereCase(
      id: "receiver.onIgnored", module: "EventConditions", form: "`onIgnored { … }`",
      writtenIn: nonisolated, delivery: "—", trigger: "`ignore(name)`"
    ) { probe in
      let receiver = receiver()
      let token = Nonisolated.onIgnored(receiver, probe)
      return Wiring(keep: [receiver, token]) { receiver.ignore("a") }
    },
    WhereCase(
      id: "receiver.onArrival", module: "EventConditions", form: "`onArrival { … }`",
      writtenIn: nonisolated, delivery: "—", trigger: "`check(name)`"
    ) { probe in
      let receiver = receiver()
      let token = Nonisolated.onArrival(receiver, probe)
      return Wiring(keep: [receiver, token]) { _ = receiver.check("a") }
    },
    WhereCase(
      id: "receiver.onArrival.isolated", module: "EventConditions", form: "`onArrival { … }`",
      writtenIn: mainActorCode, delivery: "—", trigger: "`check(name)`"
    ) { probe in
      let receiver = receiver()
      let token = receiver.onArrival { _ in probe.hit() }
      return Wiring(keep: [receiver, token]) { _ = receiver.check("a") }
    },
    WhereCase(
      id: "receiver.listen.center", module: "EventConditions",
      form: "`onArrival { … }`, counting through `listen(to: name, center:)`",
      writtenIn: nonisolated, delivery: "—", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let receiver = receiver(name.rawValue)
      let tokens = [
        Nonisolated.onArrival(receiver, probe), receiver.listen(to: name, center: center),
      ]
      return Wiring(keep: [center, receiver, tokens]) { center.post(name: name, object: nil) }
    },
    WhereCase(
      id: "receiver.listen.event", module: "EventConditions",
      form: "`onArrival { … }`, counting through `listen(to: event, as:)`",
      writtenIn: nonisolated, delivery: "`.queue(q)` (the event's)", trigger: "`post`"
    ) { probe in
      let event = Event<Int>(delivery: .queue(probe.queue))
      let receiver = receiver()
      let tokens = [Nonisolated.onArrival(receiver, probe), receiver.listen(to: event, as: "a")]
      return Wiring(keep: [event, receiver, tokens]) { _ = event.post(1) }
    },
  ]
}

/// The conditioner forms that wait: the closure that `verified(after:)` runs, and the code after
/// its `await`; and the handlers of forms that reach many receivers.
@MainActor private var waitCases: [WhereCase] {
  func work(_ form: WaitForm, _ name: String) -> WhereCase {
    WhereCase(
      id: "receiver.verified.work.\(form)", module: "EventConditions", form: name,
      writtenIn: callersCode, delivery: "—", trigger: "The call itself",
      from: [.mainActor, .otherActor]
    ) { probe in
      let receiver = receiver()
      return Wiring(keep: [receiver], trigger: {}) { caller in
        // The closure is written in the caller's own code, as a user writes it: a closure
        // handed an `isolated` parameter would not inherit its isolation.
        if let poster = caller as? PostingActor {
          await poster.verify(form, receiver, probe)
        } else {
          await verifyOnMainActor(form, receiver, probe)
        }
      }
    }
  }
  return [
    work(.sync, "The closure of `await verified(after:)`"),
    work(.timeout, "The closure of `try await verified(timeout:after:)`"),
    work(.async, "The `async` closure of `await verified(after:)`"),
    work(.asyncTimeout, "The `async` closure of `try await verified(timeout:after:)`"),
    WhereCase(
      id: "receiver.verified.resume.mainActor", module: "EventConditions",
      form: "The code after `await verified(after:)`", writtenIn: mainActorCode, delivery: "—",
      trigger: "`check(name)`"
    ) { probe in
      let receiver = receiver()
      let waiting = Flag()
      let task = Task { @MainActor in
        await receiver.verified(after: { waiting.set() })
        probe.hit()
      }
      await until { waiting.isSet }
      return Wiring(keep: [receiver, task]) { _ = receiver.check("a") }
    },
    WhereCase(
      id: "receiver.verified.resume.detached", module: "EventConditions",
      form: "The code after `await verified(after:)`, in a detached task",
      writtenIn: nonisolated, delivery: "—", trigger: "`check(name)`"
    ) { probe in
      let receiver = receiver()
      let waiting = Flag()
      let task = Nonisolated.afterVerified(receiver, probe, waiting: waiting)
      await until { waiting.isSet }
      return Wiring(keep: [receiver, task]) { _ = receiver.check("a") }
    },
    WhereCase(
      id: "receiver.onVerified.shared", module: "EventConditions",
      form: "`onVerified { … }`, for a `SharedConditioners` conditioner", writtenIn: nonisolated,
      delivery: "—", trigger: "`registry.arrive(name)`"
    ) { probe in
      let registry = SharedConditioners()
      let receiver = NotificationReceiver()
      receiver.add(registry.conditioner("a"))
      let token = Nonisolated.onVerified(receiver, probe)
      return Wiring(keep: [registry, receiver, token]) { registry.arrive("a") }
    },
    WhereCase(
      id: "receiver.onIgnored.broadcast", module: "EventConditions", form: "`onIgnored { … }`",
      writtenIn: nonisolated, delivery: "—", trigger: "`NotificationReceiver.ignore(name)`"
    ) { probe in
      // A name of its own: the broadcast reaches every live receiver of the process.
      let name = fresh().rawValue
      let receiver = receiver(name)
      let token = Nonisolated.onIgnored(receiver, probe)
      return Wiring(keep: [receiver, token]) { NotificationReceiver.ignore(name) }
    },
  ]
}

/// The handlers of drop reports, for a `.queue(q)` registration whose `.dropOldest(1)` backlog
/// drops: the first drop of a burst is reported by the call that drops; the later ones, added
/// up, before the registration's next call.
@MainActor private var dropCases: [WhereCase] {
  let first = "The `post` that drops"
  let later = "The registration's next call"
  let reports = "Reports of `.queue(q)`, `.dropOldest(1)`"
  let burst = ["first": "first drop of a burst", "later": "later drops of a burst"]
  func event(_ id: String, _ trigger: String, count: Int) -> WhereCase {
    WhereCase(
      id: "event.drops.\(id)", module: "EventTyped",
      form: "`drops.subscribe { … }`, for the \(burst[id]!)", writtenIn: nonisolated,
      delivery: reports, trigger: trigger
    ) { probe in
      let event = Event<Int>(delivery: .queue(probe.queue), backlog: .dropOldest(1))
      let block = QueueBlock(probe.queue)
      let tokens = [
        Nonisolated.subscribeSilently(event), Nonisolated.drops(event, probe, count: count),
      ]
      // 1 waits behind the block; 2 drops it (a report of 1); 3 and 4 drop 2 and 3.
      event.post(1)
      if count == 1 {
        return Wiring(keep: [event, tokens, block]) {
          event.post(2)
          block.release()
        }
      }
      for value in 2...4 { event.post(value) }
      return Wiring(keep: [event, tokens, block]) { block.release() }
    }
  }
  func hub(_ id: String, _ trigger: String, count: Int, isolated: Bool = false) -> WhereCase {
    WhereCase(
      id: "broadcaster.onDrop.\(id)" + (isolated ? ".mainActorCode" : ""),
      module: "EventBroadcast", form: "`onDrop { … }`, for the \(burst[id]!)",
      writtenIn: isolated ? mainActorCode : nonisolated, delivery: reports, trigger: trigger
    ) { probe in
      let hub = Broadcaster(backlog: .dropOldest(1))
      let observer = SilentObserver()
      let block = QueueBlock(probe.queue)
      let tokens = [
        Nonisolated.register(hub, observer, on: probe.queue),
        // A plain `@Sendable` closure: written here, it still takes no isolation.
        isolated
          ? hub.onDrop { drop in if drop.count == count { probe.hit() } }
          : Nonisolated.onDrop(hub, probe, count: count),
      ]
      let notify: @Sendable () -> Void = { hub.notify((any Ping).self) { $0.ping() } }
      notify()
      if count == 1 {
        return Wiring(keep: [hub, observer, tokens, block]) {
          notify()
          block.release()
        }
      }
      for _ in 2...4 { notify() }
      return Wiring(keep: [hub, observer, tokens, block]) { block.release() }
    }
  }
  func center(_ id: String, _ trigger: String, count: Int, isolated: Bool = false) -> WhereCase {
    WhereCase(
      id: "center.onDrop.\(id)" + (isolated ? ".mainActorCode" : ""), module: "EventRAII",
      form: "`onDrop { … }`, for the \(burst[id]!)",
      writtenIn: isolated ? mainActorCode : nonisolated, delivery: reports, trigger: trigger
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let block = QueueBlock(probe.queue)
      let tokens = [
        Nonisolated.observeSilently(center, name, on: probe.queue),
        isolated
          ? center.onDrop { drop in if drop.count == count { probe.hit() } }
          : Nonisolated.onDrop(center, probe, count: count),
      ]
      let post: @Sendable () -> Void = { center.post(name: name, object: nil) }
      post()
      if count == 1 {
        return Wiring(keep: [center, tokens, block]) {
          post()
          block.release()
        }
      }
      for _ in 2...4 { post() }
      return Wiring(keep: [center, tokens, block]) { block.release() }
    }
  }
  return [
    event("first", first, count: 1),
    event("later", later, count: 2),
    WhereCase(
      id: "event.drops.first.isolated", module: "EventTyped",
      form: "`drops.subscribe { … }`, for the first drop of a burst", writtenIn: mainActorCode,
      delivery: reports, trigger: first
    ) { probe in
      let event = Event<Int>(delivery: .queue(probe.queue), backlog: .dropOldest(1))
      let block = QueueBlock(probe.queue)
      let tokens = [
        Nonisolated.subscribeSilently(event),
        event.drops.subscribe { drop in if drop.count == 1 { probe.hit() } },
      ]
      event.post(1)
      return Wiring(keep: [event, tokens, block]) {
        event.post(2)
        block.release()
      }
    },
    WhereCase(
      id: "keyed.drops.first", module: "EventTyped",
      form: "A keyed event's `drops.subscribe { … }`, for the first drop of a burst",
      writtenIn: nonisolated, delivery: reports, trigger: "The `post(_:to:)` that drops"
    ) { probe in
      let event = KeyedEvent<Int, Int>(delivery: .queue(probe.queue), backlog: .dropOldest(1))
      let block = QueueBlock(probe.queue)
      let tokens = [
        Nonisolated.subscribeSilently(event[7]), Nonisolated.drops(event, probe, count: 1),
      ]
      event.post(1, to: 7)
      return Wiring(keep: [event, tokens, block]) {
        event.post(2, to: 7)
        block.release()
      }
    },
    hub("first", "The `notify` that drops", count: 1),
    hub("later", later, count: 2),
    hub("first", "The `notify` that drops", count: 1, isolated: true),
    center("first", "The `center.post` that drops", count: 1),
    center("later", later, count: 2),
    center("first", "The `center.post` that drops", count: 1, isolated: true),
  ]
}

@MainActor private var recorderCases: [WhereCase] {
  [
    WhereCase(
      id: "testing.eventRecorder", module: "EventTesting",
      form: "`EventRecorder(event)`: the payload is in `values` when `post` returns",
      writtenIn: "—", delivery: "—", trigger: "`post`"
    ) { probe in
      let event = Event<Int>()
      let recorder = EventRecorder(event)
      return Wiring(keep: [recorder]) {
        _ = event.post(1)
        if recorder.values == [1] { probe.hit() }
      }
    },
    WhereCase(
      id: "testing.notificationRecorder", module: "EventTesting",
      form: "`NotificationRecorder(center, name:)`: the notification is in `notifications` "
        + "when `post` returns",
      writtenIn: "—", delivery: "—", trigger: "`center.post`"
    ) { probe in
      let center = NotificationCenter()
      let name = fresh()
      let recorder = NotificationRecorder(center, name: name)
      return Wiring(keep: [center, recorder]) {
        center.post(name: name, object: nil)
        if recorder.notifications.count == 1 { probe.hit() }
      }
    },
  ]
}

// MARK: - The test

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
  await until { probe.count >= whereCase.calls }
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
    eventCases + broadcastCases + centerCases + conditionCases + waitCases + dropCases
    + recorderCases
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
