import EventCore
import Synchronization

extension Broadcaster {
  /// Calls a nonisolated `body` with the observer of `entry` where its route says: every
  /// registration but a synchronous, nonisolated one whose observer `notify` holds inline.
  ///
  /// A registration isolated to an actor is never weak-loaded here, off its actor: its observer
  /// is loaded where its call runs (guarantee 12), and a dead one ends there.
  ///
  /// - Returns: `false` when the registration is dead, so that the list purges it.
  @usableFromInline static func route<P>(
    _ entry: ObserverEntry<Never>, _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    caller: (any Actor)?, _ context: inout NotifyContext
  ) -> Bool {
    let registration = registration(of: entry)
    let route = registration.route
    switch route.kind {
    case .synchronous:
      // An observer whose `P` is rebuilt by a cast (`any Error`).
      guard let alive = registration.observer else { return false }
      registration.withAnyObserver(alive, as: P.self, IsolatedHandler.callable(sendable: body))
      return true
    case .queue(let queue):
      guard registration.observer != nil else { return false }
      queue.async { call(entry, body) }
      return true
    case .mainActor(let isolated):
      if !isolated, registration.observer == nil { return false }
      return onMainActor(entry, route, body, &context)
    case .actor(let weakActor):
      guard let actor = weakActor.object else { return false }
      return enqueue(entry, body, on: actor, route, caller: caller)
    }
  }

  /// Runs the call on the main actor: inline when the notification runs there and no observer
  /// it reached so far had a call still queued there, otherwise queued on the main queue (which
  /// the main actor drains), behind what is queued.
  ///
  /// Decided once per notification (guarantee 13): from the first main-actor observer that
  /// still has a call queued, that one and every later main-actor observer of the notification
  /// are queued, so calls on the main actor run in notify order, per observer and across them.
  private static func onMainActor<P>(
    _ entry: ObserverEntry<Never>, _ route: ObserverRoute,
    _ body: @escaping @isolated(any) @Sendable (P) -> Void, _ context: inout NotifyContext
  ) -> Bool {
    if context.mainActor == .undecided {
      context.mainActor = MainActorDetection.isOnMainActor ? .inline : .queued
    }
    if context.mainActor == .inline {
      if route.queuedOnMain.load(ordering: .acquiring) == 0 { return call(entry, body) }
      context.mainActor = .queued
    }
    route.queuedOnMain.wrappingAdd(1, ordering: .acquiringAndReleasing)
    DispatchQueue.main.async {
      call(entry, body)
      route.queuedOnMain.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
    return true
  }

  /// Runs the call on `actor`: inline when the caller runs there and nothing is queued for the
  /// registration, otherwise in its mailbox, which one task at a time drains on the actor.
  private static func enqueue<P>(
    _ entry: ObserverEntry<Never>, _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    on actor: any Actor,
    _ route: ObserverRoute, caller: (any Actor)?
  ) -> Bool {
    let startsDrain = route.mailbox.withLock { mailbox -> Bool? in
      if caller === actor && !mailbox.isDraining && mailbox.calls.isEmpty { return nil }
      mailbox.calls.append { call(entry, body) }
      guard !mailbox.isDraining else { return false }
      mailbox.isDraining = true
      return true
    }
    switch startsDrain {
    case nil: return call(entry, body)
    case true?: Task { await drain(route, on: actor) }
    case false?: break
    }
    return true
  }

  /// Runs the calls in `route`'s mailbox on `actor`, in order, until it is empty, giving the
  /// actor back after every ``ObserverRoute/batchLimit`` calls (guarantee 14): its other work
  /// waits for one batch, not for every notification that arrives meanwhile.
  private static func drain(_ route: ObserverRoute, on actor: isolated any Actor) async {
    var pending = ContiguousArray<@Sendable () -> Void>()
    var next = 0
    var served = 0
    while true {
      if next == pending.count {
        pending = route.mailbox.withLock { mailbox in
          defer { mailbox.calls = [] }
          if mailbox.calls.isEmpty { mailbox.isDraining = false }
          return mailbox.calls
        }
        next = 0
        if pending.isEmpty { return }
      }
      if served == ObserverRoute.batchLimit {
        served = 0
        await Task.yield()
      }
      pending[next]()
      next += 1
      served += 1
    }
  }

  /// Calls `body` with the observer of `entry` if the registration is still live, where the
  /// caller runs it (the registration's thread or actor). An observer found dead here ends its
  /// registration: a notification made off its actor does not load it.
  ///
  /// - Returns: Whether the registration was live.
  @discardableResult
  static func call<P>(
    _ entry: ObserverEntry<Never>, _ body: @escaping @isolated(any) @Sendable (P) -> Void
  ) -> Bool {
    guard entry.liveness.isLive else { return false }
    let registration = registration(of: entry)
    guard let alive = registration.observer else {
      entry.endRegistration()
      return false
    }
    registration.withAnyObserver(alive, as: P.self, IsolatedHandler.callable(sendable: body))
    return true
  }

  /// Calls `body`, isolated to an actor, with every live observer of `channel` on that actor.
  ///
  /// Isolated to the main actor, each call takes the main-actor path of a main-actor
  /// registration: inline when `notify` runs there with nothing queued for the observer,
  /// otherwise queued behind what is, so that a notification made on the main actor never
  /// overtakes one queued earlier. Isolated to another actor: inline when the caller runs there,
  /// otherwise one job there for the whole notification, with the observers registered when it
  /// started, counted in `jobs` until it has run.
  @usableFromInline static func notifyIsolated<P>(
    _ channel: Channel, _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    caller: (any Actor)?, jobs: IsolatedJobs
  ) {
    guard let actor = body.isolation else { return }
    if actor is MainActor {
      var context = NotifyContext()
      channel.forEachEntry { entry in
        guard entry.liveness.isLive else { return false }
        return onMainActor(entry, registration(of: entry).route, body, &context)
      }
      return
    }
    if actor === caller {
      channel.forEachEntry { callOnActor($0, body) }
      return
    }
    let entries = channel.snapshot()
    let key = ObjectIdentifier(channel)
    let ticket = jobs.start(of: key)
    Task {
      await runJob(on: actor) {
        var sawDead = false
        for entry in entries where !callOnActor(entry, body) { sawDead = true }
        if sawDead { channel.purge(entries) }
      }
      jobs.finish(ticket, of: key)
    }
  }

  private static func runJob(on actor: isolated any Actor, _ job: @Sendable () -> Void) {
    job()
  }

  /// One call of an isolated body, on its actor.
  private static func callOnActor<P>(
    _ entry: ObserverEntry<Never>, _ body: @escaping @isolated(any) @Sendable (P) -> Void
  ) -> Bool {
    guard entry.liveness.isLive else { return false }
    let registration = registration(of: entry)
    guard let alive = registration.observer else { return false }
    registration.withAnyObserver(alive, as: P.self, IsolatedHandler.callable(sendable: body))
    return true
  }

  /// The observer as registered, which every entry of a broadcaster carries.
  static func registration(of entry: ObserverEntry<Never>) -> UnretainedObserver {
    unsafeDowncast(entry.attachment.unsafelyUnwrapped, to: UnretainedObserver.self)
  }
}
