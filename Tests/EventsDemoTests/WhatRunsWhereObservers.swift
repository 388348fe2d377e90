import Events
import Foundation

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

/// Registrations written in nonisolated code: their closures are nonisolated. Each module's are
/// in its WhatRunsWhere+*.swift file, beside its cases.
enum Nonisolated {}
