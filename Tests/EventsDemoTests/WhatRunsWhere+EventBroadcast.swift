import Events

extension Nonisolated {
  static func register(
    _ hub: Broadcaster, _ observer: PlainObserver, delivery: Delivery?
  ) -> Subscription {
    guard let delivery else { return hub.register((any Ping).self, observer: observer) }
    return hub.register((any Ping).self, observer: observer, delivery: delivery)
  }
  static func register(_ hub: Broadcaster, _ store: ProbeActor) -> Subscription {
    hub.register((any PingStore).self, observer: store)
  }
}

extension WhatRunsWhere {
  /// `Broadcaster`'s protocol observers.
  @MainActor static var broadcastCases: [WhereCase] {
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
}
