import Events
import Synchronization

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

extension Nonisolated {
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
}

extension WhatRunsWhere {
  /// `Event`'s and `KeyedEvent`'s forms.
  @MainActor static var eventCases: [WhereCase] {
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
}
