import Dispatch
import EventTestSupport
import Events
import Foundation

/// An observer whose calls are not what its case records.
final class SilentObserver: Ping, Sendable {
  func ping() {}
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

extension Nonisolated {
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
}

extension WhatRunsWhere {
  /// The handlers of drop reports, for a `.queue(q)` registration whose `.dropOldest(1)` backlog
  /// drops: the first drop of a burst is reported by the call that drops; the later ones, added
  /// up, before the registration's next call.
  @MainActor static var dropCases: [WhereCase] {
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
}
