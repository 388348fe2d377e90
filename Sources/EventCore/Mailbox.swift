import Synchronization

/// One registration's backlog: the calls queued for it that have not run yet, under a lock,
/// with the ``MailboxStateMachine`` that decides what waits, what is dropped and what is
/// reported. Made by the registration's first queued call.
///
/// One drain at a time takes the calls in order, one per lock, so that a bounded backlog holds
/// exactly its limit and can still drop the oldest of what waits.
@usableFromInline package final class Mailbox<Payload: Sendable>: Sendable {
  /// The most calls a drain makes before it gives its actor or queue up (guarantee 14).
  package static var batchLimit: Int { 16 }

  package let state: Lock<MailboxStateMachine<Payload>>
  /// The flow of the registration's channel, if its list has one.
  package let flow: FlowControl?
  /// Whether the first unobserved drop of this registration was printed.
  let printedDrop = Atomic<Bool>(false)
  /// Whether this registration's unbounded backlog was warned about (see
  /// ``EventDiagnostics/backlogWarning``).
  let warned = Atomic<Bool>(false)

  /// The channel's name in a warning, for a registration whose list has no flow.
  private let channel: @Sendable () -> String

  package init(flow: FlowControl?, channel: @escaping @Sendable () -> String) {
    self.flow = flow
    self.channel = channel
    state = Lock(MailboxStateMachine(backlog: flow?.backlog ?? .unbounded))
  }

  /// Whether calls go through the mailbox whatever the delivery (a bounded backlog), rather
  /// than only for an actor.
  package var isBounded: Bool { flow?.isBounded ?? false }

  /// What became of a call handed to ``enqueue(_:site:replayed:inlineIfIdle:sequence:whenQueued:startDrain:)``.
  package enum Outcome {
    /// It waits for the drain (or an older one was dropped for it).
    case queued
    /// `.dropNewest` refused it: the registration was not reached.
    case refused
    /// Nothing waits and no drain runs: the caller runs it now, on its own thread.
    case runInline
  }

  /// Queues `payload` behind the waiting calls, in order, as the backlog says, then, after the
  /// lock, starts the drain if none runs, reports the first drop of a burst and warns once.
  /// Never waits.
  ///
  /// - Parameters:
  ///   - payload: The call's payload.
  ///   - site: Where the registration was written, for reports and warnings.
  ///   - replayed: Whether it is part of a replay, which no backlog counts or drops.
  ///   - inlineIfIdle: Whether to hand the call back when nothing waits (a caller already on
  ///     the registration's actor).
  ///   - sequence: The call's place in ``MainActorSchedule``'s order, if the mailbox drains
  ///     through it.
  ///   - whenQueued: Called under the lock when the call adds one to what waits, before a
  ///     drain can take it.
  ///   - startDrain: Schedules a drain on the registration's actor or queue.
  /// - Returns: What became of the call.
  package func enqueue(
    _ payload: Payload, site: RegistrationSite, replayed: Bool = false,
    inlineIfIdle: Bool = false, sequence: UInt64 = 0, whenQueued: () -> Void = {},
    startDrain: () -> Void
  ) -> Outcome {
    let threshold = EventDiagnostics.backlogThreshold
    let arrival = state.withLock { state -> MailboxStateMachine<Payload>.Arrival? in
      if inlineIfIdle && !state.isDraining { return nil }
      let arrival =
        replayed
        ? state.enqueueReplayed(payload, sequence: sequence)
        : state.enqueue(payload, warningAbove: threshold, sequence: sequence)
      if arrival.accepted && !arrival.dropped { whenQueued() }
      return arrival
    }
    guard let arrival else { return .runInline }
    if arrival.startsDrain { startDrain() }
    if let count = arrival.report { reportDrops(count, of: site) }
    if let waiting = arrival.warning { warnOnce(of: site, waiting: waiting) }
    return arrival.accepted ? .queued : .refused
  }

  /// Runs the waiting calls with `call`, in order, one per lock, at most ``batchLimit`` of
  /// them, reporting before each the drops that came before it.
  ///
  /// - Returns: `true` when calls still wait: the caller continues the drain behind what came
  ///   to its actor or queue meanwhile (guarantee 14). `false` once the mailbox is empty and the
  ///   drain has ended.
  package func runBatch(site: RegistrationSite, _ call: (Payload) -> Void) -> Bool {
    for _ in 0..<Self.batchLimit {
      guard run(state.withLock { $0.next() }, site: site, call) else { return false }
    }
    return true
  }

  /// Queues `payload` for the main actor, in ``MainActorSchedule``'s order, as
  /// ``enqueue(_:site:replayed:inlineIfIdle:sequence:whenQueued:startDrain:)`` does; the
  /// schedule runs it with `call`.
  package func enqueueOnMainActor(
    _ payload: Payload, site: RegistrationSite, replayed: Bool = false,
    whenQueued: () -> Void = {}, call: @escaping @Sendable (Payload) -> Void
  ) -> Outcome {
    let sequence = MainActorSchedule.nextSequence()
    return enqueue(
      payload, site: site, replayed: replayed, sequence: sequence, whenQueued: whenQueued
    ) {
      MainActorSchedule.schedule(at: sequence) { [self] expecting in
        runHead(expecting: expecting, site: site, call)
      }
    }
  }

  /// Queues a flush marker behind the waiting calls, in ``MainActorSchedule``'s order when the
  /// mailbox drains through it.
  ///
  /// - Returns: `false` when nothing waits: the caller calls `done` itself.
  package func enqueueMarker(_ done: @escaping @Sendable () -> Void, onMainActor: Bool) -> Bool {
    let sequence = onMainActor ? MainActorSchedule.nextSequence() : 0
    return state.withLock { $0.enqueueMarker(done, sequence: sequence) }
  }

  /// Runs the oldest call if it is the one at `sequence` in ``MainActorSchedule``'s order.
  private func runHead(
    expecting sequence: UInt64, site: RegistrationSite, _ call: (Payload) -> Void
  ) -> UInt64? {
    let (next, following) = state.withLock { $0.next(expecting: sequence) }
    run(next, site: site, call)
    return following
  }

  /// Does what ``MailboxStateMachine/next()`` said: reports the drops before a call and makes
  /// it, or runs a marker.
  ///
  /// - Returns: `false` for `.idle`: nothing was run.
  @discardableResult
  private func run(
    _ next: MailboxStateMachine<Payload>.Next, site: RegistrationSite, _ call: (Payload) -> Void
  ) -> Bool {
    switch next {
    case .payload(let payload, let report):
      if let report { reportDrops(report, of: site) }
      call(payload)
    case .marker(let done):
      done()
    case .idle:
      return false
    }
    return true
  }

  /// Reports `count` drops of the registration written at `site`.
  package func reportDrops(_ count: Int, of site: RegistrationSite) {
    flow?.reportDrops(count, of: site) { !printedDrop.exchange(true, ordering: .relaxed) }
  }

  /// Prints the backlog warning for the registration written at `site`, the first time only.
  package func warnOnce(of site: RegistrationSite, waiting: Int) {
    guard !warned.exchange(true, ordering: .relaxed) else { return }
    if let flow {
      flow.warnBacklog(of: site, waiting: waiting)
    } else {
      FlowControl.warnBacklog(of: site, waiting: waiting, channel: channel())
    }
  }
}
