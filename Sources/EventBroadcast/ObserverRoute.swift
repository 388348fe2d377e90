import EventCore
import Synchronization

/// Where the calls of one ``Broadcaster`` registration run, and the calls queued for it.
///
/// Decided once, at registration, from the delivery asked for and the isolation of the code
/// that registered: isolation wins over delivery, as with `Event`. Every queued call holds the
/// registration's entry, which holds the observer weakly, so a queued call never keeps the
/// observer alive, and checks liveness where it runs.
@usableFromInline final class ObserverRoute: Sendable {
  @usableFromInline enum Kind: Sendable {
    /// On the notifying thread, before `notify` returns.
    case synchronous
    /// Asynchronously on a queue, in notify order when it is serial.
    case queue(DispatchQueue)
    /// On the main actor. `isolated` when registered from code isolated to it: the observer
    /// then belongs to the main actor and is loaded only there (guarantee 12).
    case mainActor(isolated: Bool)
    /// On another actor, the isolation of the registering code, held weakly (guarantee 11): a
    /// registration whose actor has died is dead.
    case actor(WeakActor)

    var isSynchronous: Bool {
      if case .synchronous = self { return true }
      return false
    }
  }

  /// A zeroing weak reference to an actor (`any Actor` is not a class type `WeakReference`
  /// takes). A weak load is atomic in the runtime, so sharing one across threads is sound.
  @usableFromInline struct WeakActor: Sendable {
    weak var object: (any Actor)?
  }

  /// Synchronous calls waiting for an actor, drained there one at a time, in notify order.
  struct Mailbox {
    var calls: ContiguousArray<@Sendable () -> Void> = []
    var isDraining = false
  }

  /// Async calls (`notify` with an async body) waiting for the registration's
  /// isolation, run one at a time, in notify order.
  struct AsyncMailbox {
    var calls: ContiguousArray<@Sendable (isolated (any Actor)?) async -> Void> = []
    var isDraining = false
  }

  /// The most calls a drain makes on an actor before it gives the actor up (guarantee 14).
  static var batchLimit: Int { 16 }

  @usableFromInline let kind: Kind
  /// Main-actor calls queued and not yet run: a notify on the main actor runs the observer
  /// inline only when nothing is queued for it, so it never overtakes an earlier notify.
  let queuedOnMain = Atomic<Int>(0)
  /// The calls waiting for the observer, made by the first call that waits: a synchronous
  /// registration never needs them, and two locks per registration cost four allocations and a
  /// generic metadata lookup each time (callgrind, `churn.broadcaster/1000`).
  private let mailboxes = LazyReference()

  private final class Mailboxes: Sendable {
    let calls = Lock(Mailbox())
    let asyncCalls = Lock(AsyncMailbox())
  }

  private var created: Mailboxes {
    mailboxes.load(as: Mailboxes.self) ?? mailboxes.storeIfNil(Mailboxes())
  }

  /// The calls queued for the observer, in notify order.
  var mailbox: Lock<Mailbox> { created.calls }
  /// Both mailboxes, if a call was ever queued in them: a flush looks without making them.
  var existingMailboxes: (calls: Lock<Mailbox>, asyncCalls: Lock<AsyncMailbox>)? {
    mailboxes.load(as: Mailboxes.self).map { ($0.calls, $0.asyncCalls) }
  }
  /// The async-body calls queued for the observer, in notify order.
  var asyncMailbox: Lock<AsyncMailbox> { created.asyncCalls }
  /// The executor that makes an async body start on a `.queue(q)` registration's queue.
  let queueExecutor: QueueExecutor?

  /// The route of a registration asked to run as `delivery`, made from code isolated to
  /// `isolation` (`nil`: nonisolated).
  init(delivery: Delivery, isolation: (any Actor)?) {
    if let isolation {
      kind =
        isolation is MainActor
        ? .mainActor(isolated: true) : .actor(WeakActor(object: isolation))
    } else {
      switch delivery.kind {
      case .queue(let queue): kind = .queue(queue)
      case .mainActor: kind = .mainActor(isolated: false)
      default: kind = .synchronous
      }
    }
    if case .queue(let queue) = kind {
      queueExecutor = QueueExecutor(queue)
    } else {
      queueExecutor = nil
    }
  }

  /// The actor the registration's calls run on, if any, and whether it has died.
  var actorIsDead: Bool {
    if case .actor(let actor) = kind { return actor.object == nil }
    return false
  }
}

/// What one notification has decided for every registration it reaches, in registration order:
/// whether its main-actor calls run inline (guarantee 13: from the first main-actor observer
/// that still has a call queued, every later one of the notification is queued behind it).
@usableFromInline struct NotifyContext {
  @usableFromInline enum MainActorCalls { case undecided, inline, queued }
  @usableFromInline var mainActor = MainActorCalls.undecided
  @inlinable init() {}
}
