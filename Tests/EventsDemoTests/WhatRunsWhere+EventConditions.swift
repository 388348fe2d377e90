import Events
import Foundation

extension Nonisolated {
  static func onVerified(_ receiver: NotificationReceiver, _ probe: Probe) -> Subscription {
    receiver.onVerified { probe.hit() }
  }
  static func onIgnored(_ receiver: NotificationReceiver, _ probe: Probe) -> Subscription {
    receiver.onIgnored { _ in probe.hit() }
  }
  static func onArrival(_ receiver: NotificationReceiver, _ probe: Probe) -> Subscription {
    receiver.onArrival { _ in probe.hit() }
  }
}

extension WhatRunsWhere {
  /// A `NotificationReceiver`'s handlers, and what counts arrivals for it.
  @MainActor static var conditionCases: [WhereCase] {
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
}
