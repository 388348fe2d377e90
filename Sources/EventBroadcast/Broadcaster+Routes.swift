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
    let route = route(of: entry)
    switch route.kind {
    case .synchronous:
      // An observer whose `P` is rebuilt by a cast (`any Error`).
      guard let alive = entry.observer else { return false }
      route.observer.withAnyObserver(alive, as: P.self, IsolatedHandler.callable(sendable: body))
      return true
    case .queue(let queue):
      guard entry.observer != nil else { return false }
      if route.usesMailbox {
        return enqueue(entry, body, in: route) { mailbox in
          queue.async { drain(mailbox, of: entry, on: queue) }
        }
      }
      warnIfBacklogged(
        entry, route,
        waiting: route.queuedOnQueue.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue)
      queue.async {
        call(entry, body)
        route.queuedOnQueue.wrappingSubtract(1, ordering: .acquiringAndReleasing)
      }
      return true
    case .mainActor(let isolated):
      if !isolated, entry.observer == nil { return false }
      return onMainActor(entry, route, body, &context)
    case .actor(let weakActor):
      guard let actor = weakActor.object else { return false }
      return enqueue(entry, body, in: route, inlineIfIdle: caller === actor) { mailbox in
        Task { await drain(mailbox, of: entry, on: actor) }
      }
    }
  }

  /// Runs the call on the main actor: inline when the notification runs there and no observer
  /// it reached so far had a call still queued there, otherwise queued on the main queue (which
  /// the main actor drains), behind what is queued: through the registration's mailbox when its
  /// backlog is bounded, straight to the main queue otherwise.
  ///
  /// Decided once per notification (guarantee 13): from the first main-actor observer that
  /// still has a call queued, that one and every later main-actor observer of the notification
  /// are queued, so a notification on the main actor never overtakes a call queued earlier.
  private static func onMainActor<P>(
    _ entry: ObserverEntry<Never>, _ route: ObserverRoute,
    _ body: @escaping @isolated(any) @Sendable (P) -> Void, _ context: inout NotifyContext
  ) -> Bool {
    if context.mainActor == .undecided {
      context.mainActor = MainActorDetection.isOnMainActor ? .inline : .queued
    }
    if context.mainActor == .inline {
      if !entry.hasQueuedCalls { return call(entry, body) }
      context.mainActor = .queued
    }
    // Only a main-actor route's mailbox drains on the main actor: a body isolated to the main
    // actor, notified to another route, goes straight to the main queue.
    if case .mainActor = route.kind, route.usesMailbox {
      // In the one order of every bounded main-actor mailbox (guarantee 13 across observers).
      let outcome = route.calls.enqueueOnMainActor(
        {
          call(entry, body)
          entry.queuedCallRan()
        }, site: entry.site,
        whenQueued: { entry.queuedCallAdded() },
        call: { $0() })
      _ = outcome  // A refused call leaves the registration live, so it is not purged.
      return true
    }
    warnIfBacklogged(entry, route, waiting: entry.queuedCallAdded())
    DispatchQueue.main.async {
      call(entry, body)
      entry.queuedCallRan()
    }
    return true
  }

  /// Warns once, for the registration, when the calls sent straight to a queue (an unbounded
  /// backlog) and waiting there, `waiting` of them counting the one just sent, pass
  /// ``/EventCore/EventDiagnostics/backlogWarning``.
  private static func warnIfBacklogged(
    _ entry: ObserverEntry<Never>, _ route: ObserverRoute, waiting: Int
  ) {
    if waiting > EventDiagnostics.backlogThreshold {
      route.registrationRoute(of: entry).calls.warnOnce(of: entry.site, waiting: waiting)
    }
  }

  /// Queues the call in the registration's mailbox, in notify order, as its backlog says,
  /// calling `startDrain` if no drain runs; or runs it now when `inlineIfIdle` and nothing
  /// waits. Never waits: a full bounded backlog drops instead, and reports it.
  ///
  /// A main-actor registration's queued calls are counted by its entry from before a drain can
  /// take them until they have run, so that the count is never below what waits.
  ///
  /// - Parameters:
  ///   - entry: The registration.
  ///   - body: The notification's body.
  ///   - route: The registration's route, whose mailbox takes the call.
  ///   - inlineIfIdle: Whether the caller runs on the registration's actor, where the call may
  ///     run now if nothing waits.
  ///   - startDrain: Schedules a drain of the mailbox it is given where the registration runs.
  /// - Returns: `false` when the registration, called inline, was dead.
  private static func enqueue<P>(
    _ entry: ObserverEntry<Never>, _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    in route: ObserverRoute, inlineIfIdle: Bool = false,
    startDrain: (Mailbox<ObserverRoute.Call>) -> Void
  ) -> Bool {
    let mailbox = route.calls
    let countsOnMain = route.kind.isMainActor
    let outcome = mailbox.enqueue(
      {
        call(entry, body)
        if countsOnMain { entry.queuedCallRan() }
      }, site: entry.site, inlineIfIdle: inlineIfIdle,
      whenQueued: {
        if countsOnMain { entry.queuedCallAdded() }
      }, startDrain: { startDrain(mailbox) })
    // A refused call leaves the registration live, so it is not purged.
    guard case .runInline = outcome else { return true }
    return call(entry, body)
  }

  /// Runs the calls in `mailbox` on `actor`, in order, until it is empty, giving the actor back
  /// after every `Mailbox.batchLimit` calls (guarantee 14): its other work waits
  /// for one batch, not for every notification that arrives meanwhile.
  ///
  /// After a batch the drain ends and enqueues its continuation as a new task isolated to
  /// `actor`, which the runtime enqueues on the actor itself, behind the jobs queued there
  /// meanwhile. (`Task.yield()` would hop through the global executor first, and so wait for a
  /// free thread of the cooperative pool before it even joins the actor's queue.)
  private static func drain(
    _ mailbox: Mailbox<ObserverRoute.Call>, of entry: ObserverEntry<Never>,
    on actor: isolated any Actor
  ) {
    guard mailbox.runBatch(site: entry.site, { $0() }) else { return }
    Task { drain(mailbox, of: entry, on: actor) }
  }

  /// ``drain(_:of:on:)-(_,_,isolated any Actor)`` for a bounded `.queue` or `.mainActor`
  /// registration: batches on `queue`, each enqueued behind what came there meanwhile.
  private static func drain(
    _ mailbox: Mailbox<ObserverRoute.Call>, of entry: ObserverEntry<Never>,
    on queue: DispatchQueue
  ) {
    guard mailbox.runBatch(site: entry.site, { $0() }) else { return }
    queue.async { drain(mailbox, of: entry, on: queue) }
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
    guard let alive = entry.observer else {
      entry.endRegistration()
      return false
    }
    route(of: entry).observer.withAnyObserver(
      alive, as: P.self, IsolatedHandler.callable(sendable: body))
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
        return onMainActor(entry, route(of: entry), body, &context)
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
    guard let alive = entry.observer else { return false }
    route(of: entry).observer.withAnyObserver(
      alive, as: P.self, IsolatedHandler.callable(sendable: body))
    return true
  }

  /// The route of a registration, with its observer as registered, which every entry of a
  /// broadcaster carries.
  static func route(of entry: ObserverEntry<Never>) -> ObserverRoute {
    unsafeDowncast(entry.attachment.unsafelyUnwrapped, to: ObserverRoute.self)
  }
}
