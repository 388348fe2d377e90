import EventCore

extension Broadcaster {
  /// Calls an async `body` once with each live observer of `protocolType`, on each observer's
  /// isolation, and returns at once: the form for actor observers.
  ///
  /// ```swift
  /// protocol Store: Actor { func record(_ value: Int) }
  /// broadcaster.notify((any Store).self) { await $0.record(42) }
  /// ```
  ///
  /// `notify` itself is not `async` (an `async` overload would be ambiguous in async code): it
  /// queues one call per observer and returns without waiting for any. Each observer's calls run
  /// one at a time, in notify order, never overlapping: a call starts once the observer's
  /// previous one has returned. `body` is nonisolated and runs where the observer's registration
  /// runs: on the registering code's actor (the main actor for a `@MainActor` screen), on `q`
  /// for a `.queue(q)` registration (where it starts, and resumes between suspensions), off any
  /// actor for a nonisolated one; its `await` hops to the observer's actor. A closure with no
  /// `await` selects the synchronous ``notify(_:_:isolation:)-swift.method`` instead.
  ///
  /// A queued call holds its observer weakly, and checks it when it starts: an observer released
  /// or unregistered before then is not called, and not kept alive.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol whose observers to call.
  ///   - body: Called with each observer, typed as `protocolType`.
  /// - Complexity: O(*n*) for *n* observers; each call costs a task, or a job of one.
  public func notify<P>(
    _ protocolType: P.Type,
    _ body: nonisolated(nonsending) @escaping @Sendable (P) async -> Void
  ) {
    guard let channel = existingChannel(for: ObjectIdentifier(P.self)) else { return }
    channel.forEachEntry { entry in
      guard entry.liveness.isLive else { return false }
      // The mailbox of the registration's own: a shared route's is made for it here.
      let route = Self.route(of: entry).registrationRoute(of: entry)
      if route.actorIsDead { return false }
      // A refused call (a full `.dropNewest` backlog) leaves the registration live.
      _ = route.asyncCalls.enqueue(
        { isolation in await Self.callAsync(entry, body, isolation: isolation) },
        site: entry.site
      ) { Self.startAsyncDrain(route, site: entry.site) }
      return true
    }
  }

  /// Calls `body` with each observer of `protocolType` registered with the ``shared``
  /// broadcaster, on each observer's isolation; see ``notify(_:_:)-swift.method``, which this
  /// forwards to.
  ///
  /// ```swift
  /// Broadcaster.notify((any Store).self) { await $0.record(42) }
  /// ```
  ///
  /// - Parameters:
  ///   - protocolType: The protocol whose observers to call.
  ///   - body: Called with each observer, typed as `protocolType`.
  public static func notify<P>(
    _ protocolType: P.Type,
    _ body: nonisolated(nonsending) @escaping @Sendable (P) async -> Void
  ) {
    shared.notify(protocolType, body)
  }

  /// Starts the one task that runs `route`'s async calls, on the registration's isolation.
  private static func startAsyncDrain(_ route: ObserverRoute, site: RegistrationSite) {
    switch route.kind {
    case .synchronous:
      Task { await drainAsync(route, site: site, on: nil) }
    case .queue:
      Task(executorPreference: route.queueExecutor) {
        await drainAsync(route, site: site, on: nil)
      }
    case .mainActor:
      Task { @MainActor in await drainAsync(route, site: site, on: MainActor.shared) }
    case .actor(let weakActor):
      // A dead actor's calls would never run: the drain, wherever it runs, skips them.
      let actor = weakActor.object
      Task { await drainAsync(route, site: site, on: actor) }
    }
  }

  /// Runs `route`'s async calls on `isolation`, one at a time, in order, until none is left,
  /// giving it up after every `Mailbox.batchLimit` calls (guarantee 14).
  ///
  /// After a batch the drain ends and continues in a new task: on an actor, one isolated to it,
  /// which the runtime enqueues on the actor itself, behind the jobs queued there meanwhile
  /// (`Task.yield()` would hop through the global executor first, and so wait for a free
  /// thread of the cooperative pool before it even joins the actor's queue); on a `.queue(q)`
  /// registration, one that starts on `q`, behind what came there. The mailbox stays draining
  /// throughout, so no other drain starts and the order holds.
  private static func drainAsync(
    _ route: ObserverRoute, site: RegistrationSite, on isolation: isolated (any Actor)?
  ) async {
    let calls = route.asyncCalls
    for _ in 0..<Mailbox<ObserverRoute.AsyncCall>.batchLimit {
      switch calls.state.withLock({ $0.next() }) {
      case .payload(let call, let report):
        if let report { calls.reportDrops(report, of: site) }
        await call(isolation)
      case .marker(let done):
        done()
      case .idle:
        return
      }
    }
    if case .queue = route.kind {
      Task(executorPreference: route.queueExecutor) {
        await drainAsync(route, site: site, on: nil)
      }
    } else {
      // Isolated to `isolation`, which it captures: enqueued on that actor, if any.
      Task { await drainAsync(route, site: site, on: isolation) }
    }
  }

  /// One async call, on the registration's isolation: the observer is loaded there, held for
  /// the call, and a dead one ends its registration.
  private static func callAsync<P>(
    _ entry: ObserverEntry<Never>, _ body: nonisolated(nonsending) @Sendable (P) async -> Void,
    isolation: isolated (any Actor)?
  ) async {
    guard entry.liveness.isLive else { return }
    guard let alive = entry.observer else {
      entry.endRegistration()
      return
    }
    var observer: P?
    route(of: entry).observer.withAnyObserver(alive, as: P.self) { observer = $0 }
    guard let observer else { return }
    await body(observer)
  }
}
