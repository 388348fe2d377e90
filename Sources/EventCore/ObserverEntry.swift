public import Synchronization

/// One registration in an ``ObserverList``: a handler, how to deliver to it, and what keeps it
/// live.
///
/// The entry is its own ``Liveness``, which its `Subscription` shares.
///
/// `@unchecked Sendable`: every stored property is immutable after `init` except `index`, which
/// only the owning `ObserverList` reads and writes, under its `state` mutex, and `list`, `leave`,
/// `order` and `attachment`, which are written once before the entry is published through that
/// mutex. The handlers are not `@Sendable` because the public API accepts plain closures and
/// unbound methods: they run on the thread their `Delivery` names, as the API documents.
/// `observer` is an unowned address whose strong loads (`swift_tryRetain`) the runtime makes
/// atomic, or on Apple platforms a weak reference, whose loads it makes atomic too.
@usableFromInline package final class ObserverEntry<Payload>: Liveness, @unchecked Sendable {

  /// Shared with the registration's `Subscription`; checked before every invocation.
  @inlinable package var liveness: Liveness { self }
  @usableFromInline package let delivery: Delivery
  /// The observer's identity, for lists that keep one registration per observer.
  @usableFromInline package let key: ObjectIdentifier?
  /// The observer of a registration made with one, strongly; `nil` for a closure, or once it
  /// has begun its deinitialization. Its release may be the last: read it outside any lock.
  @inlinable package var observer: AnyObject? {
    #if canImport(ObjectiveC)
      _observer
    #else
      UnownedAddress.object(at: _observer, as: AnyObject.self)
    #endif
  }
  #if canImport(ObjectiveC)
    // Behind an inlinable getter for the reason `_order` is (below): read directly from another
    // module, the weak load came with a run-time exclusivity check (`swift_beginAccess`) per
    // observer per post.
    // Spelled `Optional<AnyObject>`: a `weak var` of type `AnyObject?` is first set to `nil` by
    // an implicit initial value, and the init's assignment is then a second runtime call
    // (`swift_weakInit`, then `swift_weakAssign`). This spelling has no implicit value.
    // swift-format-ignore: UseShorthandTypeNames
    @exclusivity(unchecked) @usableFromInline weak var _observer: Optional<AnyObject>
  #else
    // The observer's address with its unowned count raised (0 for none; see `UnownedReference`
    // for why this is sound), released in `deinit`. Not weak: a weak reference gives the
    // observer a side table, and every retain and release of it, by a post, by the caller's own
    // code, by Foundation, then takes the runtime's slow path. The cost: a dead observer's memory
    // (its instance size; what its properties held is released at its `deinit`) stays allocated
    // until the entry goes, as a weak reference keeps the side table. Objective-C objects have no
    // unowned count, so Apple platforms keep the weak reference.
    @usableFromInline let _observer: UInt
  #endif
  // The handler, as two non-optional `let` closures and a flag rather than an enum or an
  // optional: a post then calls it borrowed from the entry. Switching over an enum, or
  // unwrapping an optional, copied the closure first: a retain and a release of its context
  // per call, more than half of a post's cost per observer.
  /// The handler of a closure registration; a no-op for one with an observer.
  @usableFromInline let plain: (Payload) -> Void
  /// The handler of a registration with an observer; a no-op for a closure registration.
  @usableFromInline let bound: (AnyObject, Payload) -> Void
  /// Whether the handler is ``plain`` (a closure registration) rather than ``bound``.
  @usableFromInline let isPlain: Bool

  /// The entry's place in registration order among the entries of several lists that one post
  /// delivers from together (EventRAII keeps one list per sender beside the list of observers of
  /// every sender, and merges them by this number). Set before the entry is inserted; 0 for
  /// entries that only ever share a list.
  @inlinable package var order: Int {
    get { _order }
    set { _order = newValue }
  }

  /// What a caller that calls its observers itself, rather than through the handler, keeps per
  /// registration (EventBroadcast: the observer as the protocol type it was registered as). Set
  /// before the entry is inserted.
  @inlinable package var attachment: AnyObject? {
    get { _attachment }
    set { _attachment = newValue }
  }

  /// Where the registration was written and what kind it is, for `String(reflecting:)`. Written
  /// once, before the entry is published through the list's mutex (as `order` is); never read by
  /// a post.
  @inlinable package var site: RegistrationSite {
    get { _site }
    set { _site = newValue }
  }

  /// ``attachment`` without a retain, for a post path: valid while the caller holds the entry,
  /// which holds the attachment and never changes it once inserted.
  @inlinable package var unretainedAttachment: Unmanaged<AnyObject>? {
    _attachment.map { Unmanaged.passUnretained($0) }
  }

  /// Where the list places the entry: higher priorities are delivered first, equal ones in
  /// registration order. Set before the entry is inserted; 0 by default.
  @inlinable package var priority: Int {
    get { _priority }
    set { _priority = newValue }
  }

  // Stored behind inlinable accessors: a client module reading the stored properties directly
  // does not see `@exclusivity(unchecked)` and checks every access at run time.
  @exclusivity(unchecked) @usableFromInline var _order = 0
  @exclusivity(unchecked) @usableFromInline var _priority = 0
  @exclusivity(unchecked) @usableFromInline var _attachment: AnyObject?
  @exclusivity(unchecked) @usableFromInline var _site = RegistrationSite.madeByThePackage
  /// The handler of a registration made with ``refuses(with:)``; written once, before the entry
  /// is published.
  @exclusivity(unchecked) @usableFromInline var _refusing: ((Payload) -> Bool)?

  /// Position in the owning list's slots; guarded by that list's `state` mutex.
  @exclusivity(unchecked) @usableFromInline var index = -1
  /// The list the entry is registered in, so that its token can leave it; `nil` once the list
  /// has begun its deinitialization. Written once, before the entry is published through the
  /// list's mutex.
  // Inlinable, so that reading it looks up no generic metadata.
  @inlinable var list: ObserverList<Payload>? {
    // Not `UnownedAddress.object(at:as:)`: `endRegistration` runs unspecialized, and that
    // generic call looked up the list type's metadata on every cancel.
    get {
      guard UnownedAddress.tryRetain(_list) else { return nil }
      return Unmanaged<ObserverList<Payload>>.fromOpaque(
        UnsafeRawPointer(bitPattern: _list).unsafelyUnwrapped
      ).takeRetainedValue()
    }
    set {
      UnownedAddress.release(_list)
      _list = UnownedAddress.retain(newValue)
    }
  }
  // Unowned, not weak: a weak reference gives the list a side table, and every retain and
  // release of the list (one per cancel) then takes the runtime's slow path. It keeps the
  // list's memory, not the list, alive while the entry lives (see ``UnownedReference``); the
  // entry's `deinit` lets go of it. An address rather than an `UnownedReference`, whose
  // `~Copyable` stored here crashes the optimizer (Swift 6.3).
  @exclusivity(unchecked) @usableFromInline var _list: UInt = 0
  /// How to leave `list`: a function made where the list's code is specialized for `Payload`
  /// (it captures nothing, so it costs no allocation). Calling `list.remove` from here instead
  /// would run the unspecialized generic code, which looks up type metadata at every step.
  @exclusivity(unchecked) @usableFromInline var leave:
    ((ObserverList<Payload>, ObserverEntry<Payload>) -> Void)?

  /// A registration of a closure, live until cancelled.
  ///
  /// - Parameters:
  ///   - delivery: Where `handler` runs, unless it is isolated to an actor.
  ///   - isolation: The actor `handler` is isolated to, if any: it then always runs there.
  ///   - handler: Called with each payload.
  @inlinable
  package init(
    delivery: consuming Delivery, isolation: (any Actor)? = nil,
    handler: @escaping (Payload) -> Void
  ) {
    // `delivery` is consumed (here and in the other designated inits): borrowed, the caller
    // copied it for the call and this copied it again to store it.
    self.delivery = delivery.honouring(isolation)
    self.key = nil
    #if canImport(ObjectiveC)
      self._observer = nil
    #else
      self._observer = 0
    #endif
    if isolation != nil {
      let captures = IsolatedCaptures<Payload>(plain: handler)
      self.plain = { captures.plain($0) }
      self._captures = captures
    } else {
      self.plain = handler
      self._captures = nil
    }
    self.bound = { _, _ in }
    self.isPlain = true
    super.init()
  }

  /// A registration of a closure that knows its isolation: isolated to an actor, it always runs
  /// there; nonisolated, it runs as `delivery` says.
  ///
  /// The handler is reinterpreted as a plain function here, at the entry's own types, by the
  /// argument in ``IsolatedHandler``.
  @inlinable
  package convenience init(
    delivery: Delivery,
    isolatedHandler handler: @escaping @isolated(any) @Sendable (Payload) -> Void
  ) {
    self.init(
      delivery: delivery, isolation: handler.isolation,
      handler: IsolatedHandler.callable(sendable: handler))
  }

  /// A registration that holds `observer` weakly and hands it, with each payload, to a handler
  /// that knows its isolation; see ``init(delivery:isolatedHandler:)``.
  @inlinable
  package convenience init<Observer: AnyObject>(
    observer: Observer, keyed: Bool, delivery: Delivery,
    isolatedHandler handler: @escaping @isolated(any) (Observer, Payload) -> Void
  ) {
    self.init(
      observer: observer, keyed: keyed, delivery: delivery, isolation: handler.isolation,
      bound: IsolatedHandler.callable(erasingObserver: handler))
  }

  /// A registration that holds `observer` weakly and hands it to `handler` while it lives.
  ///
  /// - Parameters:
  ///   - observer: The object handed to `handler`, held weakly.
  ///   - keyed: Whether the list keeps one registration per observer: inserting another keyed
  ///     entry for the same object replaces this one.
  ///   - delivery: Where `handler` runs, unless it is isolated to an actor.
  ///   - isolation: The actor `handler` is isolated to, if any: it then always runs there.
  ///   - handler: Called with the observer and the payload while the observer lives.
  @inlinable
  package convenience init<Observer: AnyObject>(
    observer: Observer, keyed: Bool, delivery: Delivery, isolation: (any Actor)? = nil,
    handler: @escaping (Observer, Payload) -> Void
  ) {
    self.init(
      observer: observer, keyed: keyed, delivery: delivery, isolation: isolation,
      bound: BoundHandler(body: handler).erased)
  }

  /// A registration that holds `observer` weakly and hands it to `bound`, which was made for
  /// its type (see ``BoundHandler``), while it lives.
  @inlinable
  init(
    observer: AnyObject, keyed: Bool, delivery: consuming Delivery, isolation: (any Actor)?,
    bound: @escaping (AnyObject, Payload) -> Void
  ) {
    self.delivery = delivery.honouring(isolation)
    self.key = keyed ? ObjectIdentifier(observer) : nil
    #if canImport(ObjectiveC)
      self._observer = observer
    #else
      self._observer = UnownedAddress.retain(observer)
    #endif
    if isolation != nil {
      let captures = IsolatedCaptures<Payload>(bound: bound)
      self.bound = { captures.bound($0, $1) }
      self._captures = captures
    } else {
      self.bound = bound
      self._captures = nil
    }
    self.plain = { _ in }
    self.isPlain = false
    super.init()
  }

  /// A registration that holds `observer` weakly and has no handler: its list's owner calls
  /// the observer itself, through `attachment` (EventBroadcast), so a post must never invoke it.
  ///
  /// Inlinable so that the owner makes it at its payload's type, where the no-op handler
  /// fields need no context: a handler closure, or one made in generic code, costs an
  /// allocation per registration.
  ///
  /// - Parameters:
  ///   - observer: The object, held weakly.
  ///   - keyed: Whether the list keeps one registration per observer (see the init with a
  ///     handler).
  ///   - delivery: Where the owner runs the calls, unless `isolation` is an actor.
  ///   - isolation: The actor of the code that registered, if any.
  ///   - attachment: What the owner calls the observer through; see ``attachment``.
  @inlinable
  package init(
    observer: AnyObject, keyed: Bool, delivery: consuming Delivery, isolation: (any Actor)?,
    attachment: AnyObject
  ) {
    self.delivery = delivery.honouring(isolation)
    self.key = keyed ? ObjectIdentifier(observer) : nil
    #if canImport(ObjectiveC)
      self._observer = observer
    #else
      self._observer = UnownedAddress.retain(observer)
    #endif
    self.plain = { _ in }
    self.bound = { _, _ in }
    self.isPlain = false
    self._captures = nil
    super.init()
    self._attachment = attachment
  }

  // The last reference to an entry can be dropped on any thread: the last post to leave a
  // storage clears the slot of an entry cancelled meanwhile. A handler written in code isolated
  // to an actor may capture that actor's objects (a `@MainActor` model), so its closures go to
  // the actor to be released there (guarantee 12; `ObserverEntry+Release.swift`).
  deinit {
    if let captures = _captures { CapturesRelease.release(captures, on: delivery.kind) }
    UnownedAddress.release(_list)
    #if !canImport(ObjectiveC)
      UnownedAddress.release(_observer)
    #endif
  }

  /// For a registration isolated to an actor, the ``IsolatedCaptures`` that hold its handler
  /// (the handler fields only call through it); `nil` otherwise.
  @usableFromInline let _captures: AnyObject?

  /// Leaves the list (which cancels the entry), or, when the list is gone, just cancels.
  @usableFromInline override package func endRegistration() {
    if let list, let leave { leave(list, self) }
    cancel()
  }

  /// Whether the registration may still be invoked, as far as the calling thread may tell.
  /// Loads weak references: call it outside any lock.
  ///
  /// A registration made from code isolated to an actor has its observer and owners on that
  /// actor, and a weak load is a strong reference: taken on a thread that posts, counts or
  /// purges, it can be the last one when the actor releases the object meanwhile, and the
  /// object's `deinit` then runs on that thread (a `@MainActor` screen deinitialized on a
  /// background thread; guarantee 12). So such a registration's observer and owners are loaded
  /// only on its actor: off it, only the cancelled flag and the actor itself (held weakly, and
  /// dead means dead: guarantee 11) are checked, and a count taken there may include a
  /// registration whose observer died, until its actor learns of it (``invokeOnItsActor(_:)``,
  /// or the check ``ObserverList`` schedules there). Swift can tell synchronously only whether
  /// code runs on the main actor, so another actor learns of it in its own deliveries.
  @inlinable package var isAlive: Bool {
    // The common case without a switch that copies the kind's payload (a queue, an actor).
    if case .synchronous = delivery.kind { return isAliveWhereItRuns }
    return isAliveElsewhere
  }

  /// ``isAlive`` for every delivery but `.synchronous`.
  @usableFromInline var isAliveElsewhere: Bool {
    switch delivery.kind {
    case .mainActor(isolated: true) where !MainActorDetection.isOnMainActor:
      return !isCancelled
    case .actor(let actor):
      return !isCancelled && actor.object != nil
    default:
      return isAliveWhereItRuns
    }
  }

  /// Whether the registration may still be invoked, checking everything: on the thread its
  /// delivery runs it on, or on any thread for a nonisolated one.
  @inlinable var isAliveWhereItRuns: Bool {
    guard liveness.isLive else { return false }
    if !isPlain { return observer != nil }
    return true
  }

  /// Whether ``isAlive`` checks everything on the calling thread (see there).
  @usableFromInline override package var mayLoadReferencesHere: Bool {
    switch delivery.kind {
    case .mainActor(isolated: true): MainActorDetection.isOnMainActor
    case .actor: false
    default: true
    }
  }

  /// Ends the registration on its actor if it is dead there: the purge a post or count made
  /// elsewhere may not make (see ``isAlive``). Runs on the entry's actor.
  @usableFromInline func endIfDeadOnItsActor() {
    if !isCancelled && !isAliveWhereItRuns { endRegistration() }
  }

  /// Schedules ``endIfDeadOnItsActor()`` on the registration's actor, without waiting for it.
  @usableFromInline func checkOnItsActor() {
    switch delivery.kind {
    case .mainActor:
      DispatchQueue.main.async { self.endIfDeadOnItsActor() }
    case .actor(let actor):
      guard let actor = actor.object else { return }
      Task { await self.endIfDead(on: actor) }
    case .synchronous, .queue:
      endIfDeadOnItsActor()
    }
  }

  private func endIfDead(on actor: isolated any Actor) {
    endIfDeadOnItsActor()
  }

  /// Runs the handler on the calling thread if the registration is still live.
  ///
  /// - Returns: `false` when the registration is dead (cancelled, or its observer or owner is
  ///   gone), so the caller can purge it.
  @inlinable
  package func invoke(_ payload: Payload) -> Bool {
    invoke(payload) {}
  }

  /// Runs the handler, then `continuation`, as one invocation, if the registration is live.
  ///
  /// For callers whose work continues after the handler, such as a broadcaster that hands the
  /// observer the handler produced to a non-escaping closure.
  @inlinable
  package func invoke(_ payload: Payload, then continuation: () -> Void) -> Bool {
    let current = state.load(ordering: .acquiring)
    if current & Liveness.slowPathBits != 0 {
      guard current & Liveness.cancelledBit == 0 else { return false }
      if current & Liveness.handOverBit != 0 {
        return invokeHandedOver(payload, then: continuation)
      }
      if current & Liveness.boundBit != 0 && !ownersAreAlive() { return false }
      if current & Liveness.onceBit != 0 {
        // A rejected payload is consumed, and the registration stays for the next.
        if current & Liveness.filteredBit != 0, !accepts(payload) { return true }
        guard claimOnce() else { return false }
      }
    }
    guard call(payload) else { return false }
    continuation()
    return true
  }

  /// Calls the handler, with no liveness check.
  ///
  /// - Returns: `false` when a bound registration's observer is gone.
  @inlinable
  func call(_ payload: Payload) -> Bool {
    #if DEBUG
      IsolatedHandler.assertIsolated(delivery.kind)
    #endif
    if isPlain {
      plain(payload)
      return true
    }
    // The strong reference taken here keeps the observer alive for the call only.
    guard let observer else { return false }
    bound(observer, payload)
    return true
  }

  /// Makes `accept` the handler of this synchronous closure registration, which returns
  /// `false` for a payload it refuses (the bounded backlog of an async handler): a post then
  /// does not count the registration as reached. Call it before the entry is registered.
  package func refuses(with accept: @escaping (Payload) -> Bool) {
    _refusing = accept
    state.bitwiseOr(Liveness.refusesBit, ordering: .relaxed)
  }

  /// Makes this registration one that runs once. Call it before the entry is registered.
  package func runOnce() {
    state.bitwiseOr(Liveness.onceBit, ordering: .relaxed)
  }

  /// Makes this registration one that runs once, for the first payload `accepts` holds for;
  /// the payloads it rejects are counted as reached and the registration stays. The invocation
  /// that claims it leaves the list inside its post, before the handler runs, so a later post
  /// neither reaches it nor runs `accepts` again. Call it before the entry is registered.
  ///
  /// - Parameter accepts: Called on the posting thread with each payload until one passes.
  // Inlinable so that the filter is made at the payload's type, without a metadata lookup.
  ///   - removal: Told when the registration is ended by ``ObserverList/removeAll()`` rather
  ///     than claimed: a wait that no post can settle any more.
  @inlinable package func runOnce(
    where accepts: @escaping @Sendable (Payload) -> Bool, removal: (any RemovalObserving)? = nil
  ) {
    // In `attachment`, which only the broadcaster's entries use otherwise: a field of its own
    // would grow every entry for the one kind of registration that has a filter.
    attachment = OnceFilter(accepts, removal: removal)
    state.bitwiseOr(Liveness.onceBit | Liveness.filteredBit, ordering: .relaxed)
  }

  /// Whether the filter of ``runOnce(where:)`` accepts `payload`.
  @usableFromInline func accepts(_ payload: Payload) -> Bool {
    unsafeDowncast(_attachment.unsafelyUnwrapped, to: OnceFilter.self).accepts(payload)
  }

  /// The filter of ``runOnce(where:)``, in ``attachment``: written once, before the entry is
  /// published, and never changed.
  @usableFromInline final class OnceFilter: Sendable {
    @usableFromInline let accepts: @Sendable (Payload) -> Bool
    @usableFromInline let removal: (any RemovalObserving)?

    @inlinable init(
      _ accepts: @escaping @Sendable (Payload) -> Bool, removal: (any RemovalObserving)?
    ) {
      self.accepts = accepts
      self.removal = removal
    }
  }

  /// Tells the filter's ``RemovalObserving`` that the registration was ended without a claim;
  /// after every lock. Does nothing for other registrations.
  @usableFromInline package func reportRemoval() {
    guard state.load(ordering: .acquiring) & Liveness.filteredBit != 0 else { return }
    unsafeDowncast(_attachment.unsafelyUnwrapped, to: OnceFilter.self).removal?
      .registrationRemoved()
  }

  /// Claims a once-registration's invocation for someone other than a post (a wait that times
  /// out): afterwards no post runs it. Leaves the list.
  ///
  /// - Returns: `false` when a post (or a cancel) claimed it first.
  @usableFromInline package func claim() -> Bool {
    claimOnce()
  }

  /// Claims a once-registration's single invocation: the caller that sets the cancelled bit
  /// runs the handler; any other, concurrent or later, does not. The winner leaves the list
  /// before the handler runs, so counts drop at once and a post from inside the handler does
  /// not reach it.
  @usableFromInline func claimOnce() -> Bool {
    guard cancel() else { return false }
    if let list, let leave { leave(list, self) }
    return true
  }

  // MARK: Scheduling

  /// Calls queued on the registration's queue (or the main queue) and not yet run: what
  /// `dispatchOnMainActor` decides by, and what an unbounded backlog warns about.
  @usableFromInline let queuedCalls = Atomic<Int>(0)

  /// Created by the first queued call: the registration's ``Mailbox``.
  @usableFromInline let mailbox = LazyReference()

  // MARK: Replay

  /// Live deliveries that arrived while the registration received its replay, in post order.
  @usableFromInline final class HeldDeliveries: Sendable {
    let payloads = Lock<ContiguousArray<Payload>>([])
    /// The held payloads of an `.untilObserved` list handed to this registration.
    let handOver = Lock(HandOver())
  }

  /// Created, with the replaying bit set, by a list that registers this entry with a replay.
  @usableFromInline let held = LazyReference()

  /// Marks the entry as receiving its replay: until ``finishReplay(_:)``, live deliveries wait
  /// in order behind it instead of reaching the handler first. Call it before the entry is
  /// published.
  @usableFromInline package func beginReplay() {
    _ = held.storeIfNil(HeldDeliveries())
    state.bitwiseOr(Liveness.replayingBit, ordering: .releasing)
  }

  /// Holds `payload` if the entry is still receiving its replay.
  ///
  /// - Returns: `false` when the replay has ended, so the caller delivers as usual.
  @usableFromInline func holdIfReplaying(_ payload: Payload) -> Bool {
    guard let held = held.load(as: HeldDeliveries.self) else { return false }
    return held.payloads.withLock { payloads in
      // Read under the lock that `finishReplay` clears the bit under: a payload is either
      // held here and drained there, or delivered by the caller after the replay.
      guard state.load(ordering: .acquiring) & Liveness.replayingBit != 0 else { return false }
      payloads.append(payload)
      return true
    }
  }
}

extension ObserverEntry where Payload: Sendable {
  /// Delivers `payload` as the entry's `Delivery` says, as part of the post `context` belongs
  /// to: one context per post, shared by every entry it reaches, in order.
  ///
  /// - Returns: `false` when the registration is dead, so the caller can purge it.
  @inlinable
  package func deliver(_ payload: Payload, _ context: inout PostContext) -> Bool {
    // The common case inline, in one load: synchronous, live, not once, not bound, no replay.
    if case .synchronous = delivery.kind,
      state.load(ordering: .acquiring) & (Liveness.slowPathBits | Liveness.replayingBit) == 0
    {
      return call(payload)
    }
    return deliverSlowly(payload, &context)
  }

  /// Every other case of ``deliver(_:_:)``, kept out of line so that the common one inlines.
  @usableFromInline func deliverSlowly(_ payload: Payload, _ context: inout PostContext) -> Bool {
    if state.load(ordering: .acquiring) & Liveness.replayingBit != 0, holdIfReplaying(payload) {
      return true
    }
    return dispatch(payload, &context)
  }

  /// Delivers `payload` as the entry's `Delivery` says, ignoring a replay in progress, as a
  /// post of its own.
  @usableFromInline package func dispatch(_ payload: Payload) -> Bool {
    var context = PostContext()
    return dispatch(payload, &context)
  }

  /// Delivers `payload` as the entry's `Delivery` says, ignoring a replay in progress.
  @usableFromInline func dispatch(_ payload: Payload, _ context: inout PostContext) -> Bool {
    switch delivery.kind {
    case .synchronous:
      if let accept = _refusing,
        state.load(ordering: .acquiring) & (Liveness.handOverBit | Liveness.onceBit) == 0
      {
        guard liveness.isLive else { return false }
        if !accept(payload) { context.refused += 1 }
        return true
      }
      return invoke(payload)
    case .queue(let queue):
      guard isAlive else { return false }
      let mailbox = makeMailboxIfNeeded()
      if mailbox.isBounded {
        return enqueue(payload, in: mailbox, &context) {
          queue.async { self.drain(mailbox, on: queue) }
        }
      }
      countQueuedCall(in: mailbox)
      queue.async {
        _ = self.invoke(payload)
        self.queuedCalls.wrappingSubtract(1, ordering: .acquiringAndReleasing)
      }
      return true
    case .mainActor:
      return dispatchOnMainActor(payload, &context)
    case .actor(let actor):
      guard let actor = actor.object, !isCancelled else { return false }
      let mailbox = makeMailboxIfNeeded()
      return enqueue(payload, in: mailbox, &context) {
        Task { await self.drain(mailbox, on: actor) }
      }
    }
  }

  /// Runs the handler on the main actor: inline when the post is on the main actor and nothing
  /// is still queued there for this post's main-actor handlers, otherwise behind what is
  /// queued, on the main queue (which the main actor drains).
  ///
  /// Decided once per post (guarantee 13), not per entry: from the first main-actor entry that
  /// still has a delivery queued, that one and every later main-actor entry of the post are
  /// queued. Deciding per entry let a post made on the main actor run a later handler inline
  /// before an earlier one's queued deliveries, and so before that handler's own call for the
  /// same post: handlers on one executor ran out of the post's order. Per entry, a post made on
  /// the main actor still never overtakes one an earlier post queued for that entry.
  @usableFromInline func dispatchOnMainActor(_ payload: Payload, _ context: inout PostContext)
    -> Bool
  {
    if context.mainActor == .undecided {
      context.mainActor = MainActorDetection.isOnMainActor ? .inline : .queued
    }
    if context.mainActor == .inline {
      if queuedCalls.load(ordering: .acquiring) == 0 { return invoke(payload) }
      context.mainActor = .queued
    }
    guard isAlive else { return false }
    let mailbox = makeMailboxIfNeeded()
    if mailbox.isBounded {
      // In the one order of every bounded main-actor mailbox: a drain of this mailbox alone,
      // batch by batch, would let another registration's call of the same post run first.
      let outcome = mailbox.enqueueOnMainActor(
        payload, site: site, replayed: context.isReplay,
        whenQueued: { queuedCalls.wrappingAdd(1, ordering: .acquiringAndReleasing) },
        call: { self.runQueued($0) })
      if case .refused = outcome { context.refused += 1 }
      return true
    }
    countQueuedCall(in: mailbox)
    DispatchQueue.main.async {
      self.invokeOnItsActor(payload)
      self.queuedCalls.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
    return true
  }

  /// Runs the handler on its actor, where its observer and owners may be loaded: a registration
  /// found dead there ends, since posts and counts made elsewhere do not load them (see
  /// ``isAlive``).
  @usableFromInline func invokeOnItsActor(_ payload: Payload) {
    if !invoke(payload) && !isCancelled { endRegistration() }
  }

  /// The registration's mailbox, made by its first queued call with its list's flow.
  func makeMailboxIfNeeded() -> Mailbox<Payload> {
    if let mailbox = mailbox.load(as: Mailbox<Payload>.self) { return mailbox }
    let list = self.list
    // Named only if a warning is printed; weakly, since the list holds the entry, which holds
    // the mailbox.
    return mailbox.storeIfNil(
      Mailbox(flow: list?.flow) { [weak list] in list?.channelName ?? "Event<\(Payload.self)>" })
  }

  /// Gives the registration a backlog of its own, `flow`'s, instead of its list's: for a
  /// channel whose registrations each choose theirs (EventRAII's). Call before subscribing it.
  package func useFlow(_ flow: FlowControl, channel: @escaping @Sendable () -> String) {
    _ = mailbox.storeIfNil(Mailbox<Payload>(flow: flow, channel: channel))
  }

  /// Counts a call queued straight to a queue (an unbounded backlog), and warns once when the
  /// calls waiting pass ``EventDiagnostics/backlogWarning``.
  func countQueuedCall(in mailbox: Mailbox<Payload>) {
    let waiting = queuedCalls.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    if waiting > EventDiagnostics.backlogThreshold { mailbox.warnOnce(of: site, waiting: waiting) }
  }

  /// Queues `payload` in `mailbox`, in post order, calling `startDrain` if no drain runs. `post`
  /// never waits: a full bounded backlog drops instead, as it says.
  ///
  /// - Returns: `true` (reached) unless `.dropNewest` refused the payload; a refusal is
  ///   counted in `context`, so that the post neither counts the registration as reached nor
  ///   takes it for dead.
  func enqueue(
    _ payload: Payload, in mailbox: Mailbox<Payload>, _ context: inout PostContext,
    startDrain: () -> Void
  ) -> Bool {
    let outcome = mailbox.enqueue(
      payload, site: site, replayed: context.isReplay,
      // Counted before a drain can run it, so that `queuedCalls` is never below what waits
      // (`dispatchOnMainActor` reads 0 as "nothing queued").
      whenQueued: { queuedCalls.wrappingAdd(1, ordering: .acquiringAndReleasing) },
      startDrain: startDrain)
    if case .refused = outcome { context.refused += 1 }
    return true
  }

  /// Takes the calls in `mailbox` one at a time, in order, on `actor`, until it is empty,
  /// giving the actor back after every ``Mailbox/batchLimit`` calls.
  ///
  /// Why batches (guarantee 14): a drain that loops until the mailbox is empty holds the actor
  /// for as long as posts keep arriving faster than the handler runs, and every other job of
  /// the actor waits for the whole flood. After a batch the drain ends and enqueues its
  /// continuation as a new task isolated to `actor`, which the runtime enqueues on the actor
  /// itself, behind the jobs queued there meanwhile (of its priority or higher): they wait for
  /// one batch at most. (`Task.yield()` would hop through the global executor first, and so
  /// wait for a free thread of the cooperative pool before it even joins the actor's queue.)
  private func drain(_ mailbox: Mailbox<Payload>, on actor: isolated any Actor) {
    guard mailbox.runBatch(site: site, runQueued) else { return }
    Task { self.drain(mailbox, on: actor) }
  }

  /// ``drain(_:on:)-(_,isolated any Actor)`` for a bounded `.queue` or `.mainActor`
  /// registration: batches on `queue`, each enqueued behind what came meanwhile.
  private func drain(_ mailbox: Mailbox<Payload>, on queue: DispatchQueue) {
    guard mailbox.runBatch(site: site, runQueued) else { return }
    queue.async { self.drain(mailbox, on: queue) }
  }

  /// Runs one call taken from the mailbox.
  private func runQueued(_ payload: Payload) {
    invokeOnItsActor(payload)
    queuedCalls.wrappingSubtract(1, ordering: .acquiringAndReleasing)
  }

  /// Delivers the replayed payloads, oldest first, then the live deliveries held meanwhile,
  /// then ends the replay. Runs on the registering thread, after every lock is released.
  @usableFromInline package func finishReplay(_ replayed: ContiguousArray<Payload>) {
    var context = PostContext()
    context.isReplay = true
    for payload in replayed where !dispatch(payload, &context) {
      // Dead before it was even scheduled: what was handed over goes back.
      giveBackUnstarted()
    }
    guard let held = held.load(as: HeldDeliveries.self) else { return }
    while true {
      let batch = held.payloads.withLock { payloads -> ContiguousArray<Payload> in
        guard !payloads.isEmpty else {
          state.bitwiseAnd(~Liveness.replayingBit, ordering: .releasing)
          return []
        }
        defer { payloads = [] }
        return payloads
      }
      guard !batch.isEmpty else { return }
      for payload in batch { _ = dispatch(payload) }
    }
  }
}
