import Events

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

/// One form, as the record describes it, and how to wire it up for a probe.
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
