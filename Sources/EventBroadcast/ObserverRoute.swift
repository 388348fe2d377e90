import EventCore
import Synchronization

/// Where the calls of one ``Broadcaster`` registration run, the calls queued for it, and its
/// observer as the `P` it was registered as: what the registration's entry carries as its
/// attachment, in one object.
///
/// Decided once, at registration, from the delivery asked for and the isolation of the code
/// that registered: isolation wins over delivery, as with `Event`. Every queued call holds the
/// registration's entry, which holds the observer weakly, so a queued call never keeps the
/// observer alive, and checks liveness where it runs.
///
/// A synchronous, nonisolated registration of a class or class-bound `P` shares its route with
/// every such registration of the same dynamic type in its channel (``isShared``): what a
/// notification reads is the same for each (its bytes differ only in the reference, which
/// `notify` writes from the live object; see ``UnretainedObserver``), so such a registration
/// costs no route of its own. What is its own alone (the mailbox of its async calls, its
/// backlog warning) is made on first use, in ``registrationRoute(of:)``; the calls it has queued
/// on the main queue are counted by its entry.
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

    var isMainActor: Bool {
      if case .mainActor = self { return true }
      return false
    }
  }

  /// A zeroing weak reference to an actor (`any Actor` is not a class type `WeakReference`
  /// takes). A weak load is atomic in the runtime, so sharing one across threads is sound.
  @usableFromInline struct WeakActor: Sendable {
    weak var object: (any Actor)?
  }

  /// One synchronous call of a notification, as the mailbox holds it.
  typealias Call = @Sendable () -> Void

  /// One async call of a notification (`notify` with an async body), run on the
  /// registration's isolation.
  typealias AsyncCall = @Sendable (isolated (any Actor)?) async -> Void

  @usableFromInline let kind: Kind
  /// The observer as the `P` it was registered as, without its reference count.
  @usableFromInline let observer: UnretainedObserver
  /// Whether `notify` calls the observer itself, inline: a nonisolated, synchronous
  /// registration of a `P` whose bytes were copied. Everything else goes through the route.
  @usableFromInline let isInline: Bool
  /// The backlog of the registration's channel, where its drops go, and how its warnings
  /// name it.
  let flow: FlowControl
  /// Whether the synchronous calls go through ``calls``: always for an actor, and for `.queue`
  /// and `.mainActor` when the backlog is bounded. An unbounded `.queue` or `.mainActor`
  /// registration's calls go straight to the queue, which keeps their order by itself.
  let usesMailbox: Bool
  /// Calls sent straight to an unbounded `.queue(q)` registration's queue and not yet run:
  /// what ``EventDiagnostics/backlogWarning`` is compared with.
  let queuedOnQueue = Atomic<Int>(0)
  // Each made by the first call that waits in it: a synchronous registration never needs
  // them, and making them at registration costs allocations and a generic metadata lookup each
  // time.
  private let mailbox = LazyReference()
  private let asyncMailbox = LazyReference()
  /// The executor that makes an async body start on a `.queue(q)` registration's queue.
  let queueExecutor: QueueExecutor?
  /// Whether the route serves several registrations (see the type); only a synchronous,
  /// nonisolated one's can.
  let isShared: Bool
  /// For a shared route, the route of each registration that needed state of its own, by its
  /// entry's identity (see ``registrationRoute(of:)``); `nil` otherwise.
  private let registrations: Lock<[ObjectIdentifier: Registration]>?

  /// A registration's own route, beside its shared one, with its entry held weakly: an entry
  /// that died leaves it behind for the next prune, and one at the same address is told apart.
  private struct Registration: Sendable {
    let entry: WeakReference<ObserverEntry<Never>>
    let route: ObserverRoute
  }

  /// The route of `observer`, the copy of a `P`, registered to run as `delivery` from code
  /// isolated to `isolation` (`nil`: nonisolated), in a channel whose flow is `flow`; shared
  /// by several registrations when `shared` (for a synchronous, nonisolated one only).
  init(
    _ observer: UnretainedObserver, delivery: Delivery, isolation: (any Actor)?,
    flow: FlowControl, shared: Bool = false
  ) {
    // Every field set by one switch: reading `kind` back copies its payload each time.
    var isSynchronous = false
    if let isolation {
      if isolation is MainActor {
        kind = .mainActor(isolated: true)
        usesMailbox = flow.isBounded
      } else {
        kind = .actor(WeakActor(object: isolation))
        usesMailbox = true
      }
      queueExecutor = nil
    } else {
      switch delivery.kind {
      case .queue(let queue):
        kind = .queue(queue)
        usesMailbox = flow.isBounded
        queueExecutor = QueueExecutor(queue)
      case .mainActor:
        kind = .mainActor(isolated: false)
        usesMailbox = flow.isBounded
        queueExecutor = nil
      default:
        kind = .synchronous
        usesMailbox = false
        queueExecutor = nil
        isSynchronous = true
      }
    }
    self.flow = flow
    self.observer = observer
    isInline = observer.size != 0 && isSynchronous
    isShared = shared && isInline
    registrations = isShared ? Lock([:]) : nil
  }

  deinit {
    // A registration's own route beside a shared one has the shared one's words, never spilled.
    if !isShared { observer.deallocate() }
  }

  /// The route whose mailboxes and warning belong to `entry`'s registration alone: this one,
  /// unless it is shared, and then one made for the registration on its first need.
  ///
  /// The routes made here are pruned of dead registrations as the table grows, outside its
  /// lock (a weak load's release may be an entry's last).
  func registrationRoute(of entry: ObserverEntry<Never>) -> ObserverRoute {
    guard let registrations else { return self }
    let id = ObjectIdentifier(entry)
    let found = registrations.withLock { $0[id] }
    if let found, found.entry.object === entry { return found.route }
    let own = ObserverRoute(observer, delivery: .synchronous, isolation: nil, flow: flow)
    let (route, count) = registrations.withLock { table -> (ObserverRoute, Int) in
      // A racing caller may have made it first; a record of a dead entry at this address goes.
      if let raced = table[id], raced.route !== found?.route { return (raced.route, 0) }
      table[id] = Registration(entry: WeakReference(entry), route: own)
      return (own, table.count)
    }
    if count >= 16 && count.nonzeroBitCount == 1 { pruneRegistrations() }
    return route
  }

  /// The route made for `entry`'s registration by ``registrationRoute(of:)``, if any: a flush
  /// looks without making it.
  func existingRegistrationRoute(of entry: ObserverEntry<Never>) -> ObserverRoute? {
    guard let registrations else { return self }
    let found = registrations.withLock { $0[ObjectIdentifier(entry)] }
    guard let found, found.entry.object === entry else { return nil }
    return found.route
  }

  /// Drops the routes of registrations whose entry is gone; their weak loads run outside the
  /// lock.
  private func pruneRegistrations() {
    guard let registrations else { return }
    let records = registrations.withLock { Array($0) }
    let dead = records.filter { $0.value.entry.object == nil }
    guard !dead.isEmpty else { return }
    let removed = registrations.withLock { table -> [Registration] in
      dead.compactMap { record in
        guard table[record.key]?.route === record.value.route else { return nil }
        return table.removeValue(forKey: record.key)
      }
    }
    _ = removed  // Released after the lock.
  }

  /// The synchronous calls waiting for the observer, in notify order, made on first use.
  var calls: Mailbox<Call> {
    mailbox.load(as: Mailbox<Call>.self)
      ?? mailbox.storeIfNil(Mailbox(flow: flow) { "Broadcaster" })
  }

  /// ``calls``, if a call was ever queued there: a flush looks without making it.
  var existingCalls: Mailbox<Call>? { mailbox.load(as: Mailbox<Call>.self) }

  /// The async-body calls waiting for the observer, in notify order, with the channel's
  /// backlog; made on first use.
  var asyncCalls: Mailbox<AsyncCall> {
    asyncMailbox.load(as: Mailbox<AsyncCall>.self)
      ?? asyncMailbox.storeIfNil(Mailbox(flow: flow) { "Broadcaster" })
  }

  /// ``asyncCalls``, if a call was ever queued there.
  var existingAsyncCalls: Mailbox<AsyncCall>? { asyncMailbox.load(as: Mailbox<AsyncCall>.self) }

  /// The actor the registration's calls run on, if any, and whether it has died.
  var actorIsDead: Bool {
    if case .actor(let actor) = kind { return actor.object == nil }
    return false
  }
}

/// What one notification has decided for every registration it reaches, in call order:
/// whether its main-actor calls run inline (guarantee 13: from the first main-actor observer
/// that still has a call queued, every later one of the notification is queued behind it).
@usableFromInline struct NotifyContext {
  @usableFromInline enum MainActorCalls { case undecided, inline, queued }
  @usableFromInline var mainActor = MainActorCalls.undecided
  @inlinable init() {}
}
