import Events
import Foundation
import Synchronization

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

extension Nonisolated {
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

extension WhatRunsWhere {
  /// The conditioner forms that wait: the closure that `verified(after:)` runs, and the code after
  /// its `await`; and the handlers of forms that reach many receivers.
  @MainActor static var waitCases: [WhereCase] {
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
}
