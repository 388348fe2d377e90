import Events
import Foundation

extension Nonisolated {
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
}

extension WhatRunsWhere {
  /// `NotificationCenter`'s `observe` forms.
  @MainActor static var centerCases: [WhereCase] {
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
}
