public import EventCore

/// Waits for several events, in any order and from any thread, then tells you once they have
/// all arrived.
///
/// Give the receiver one ``NotificationConditioner`` per thing to wait for, count arrivals
/// with ``check(_:)`` (or let ``listen(to:center:object:)`` count them), and act in
/// ``onVerified(_:fileID:line:)`` or after ``verified(after:isolation:)-86agy``:
///
/// ```swift
/// let receiver = NotificationReceiver()
/// receiver.add(NotificationConditioner("profile"))
/// receiver.add(NotificationConditioner("friends"))
/// receiver.add(NotificationConditioner("messages", minCount: 3))
/// let subscriptions = SubscriptionBag()  // in real code, a property of the screen
/// receiver.onVerified { print("everything loaded") }.store(in: subscriptions)
///
/// receiver.check("profile")
/// receiver.check("friends")
/// for _ in 0..<3 { receiver.check("messages") }  // prints "everything loaded"
/// ```
///
/// ### Rounds
/// The set is verified when every conditioner has had `minCount` arrivals, or was ignored,
/// in the current round.
/// - With ``repeats`` `== true` (the default) the completing arrival fires `onVerified` once
///   and re-arms every conditioner for the next round; arrivals beyond a conditioner's
///   `minCount` are not carried into it.
/// - With ``repeats`` `== false` the receiver latches: it stays verified until ``reset()``,
///   and `onVerified` fires once per completion, not on each later arrival.
///
/// `onVerified` fires on the transition to verified only: a set that stays verified (latched,
/// or made only of shared conditioners, which a re-arm cannot reset) does not fire again until
/// it has been unverified and completed anew. An empty set waits for nothing and is never
/// verified.
///
/// Adding or removing a conditioner does not evaluate the set; the next arrival, ignore, or
/// ``check(_:)`` of any name does.
///
/// ### Threading
/// This section holds for every member and every handler; each says only where it differs.
/// Every member is thread-safe: arrivals from many threads at once are counted exactly, each
/// under the receiver's lock. Handlers run after the lock is released, so a handler may call
/// back into the receiver. A handler written in nonisolated code runs on the thread whose call
/// caused it, before that call returns. A handler written in code isolated to an actor (a
/// `@MainActor` screen's) runs on that actor: inline when the call is made there, otherwise
/// scheduled onto it, so ``check(_:)`` may return `true` before that handler has run.
public final class NotificationReceiver: Sendable {
  typealias Waiter = VerifiedWait

  struct State: Sendable {
    var machine: ConditionsStateMachine
    var waiters = VerifiedWaiters<Waiter>()
    /// The ids of the registries this receiver already follows.
    var followedRegistries: Set<UInt64> = []
  }

  let state: Lock<State>
  private let verifiedHandlers = ObserverList<Void>()
  private let ignoredHandlers = ObserverList<String>()
  /// The ``onArrival(_:fileID:line:)`` handlers.
  let arrivalHandlers = ObserverList<String>()

  /// Creates a receiver with no conditioners.
  ///
  /// - Parameter repeats: Whether a completion re-arms the set for another round (`true`, the
  ///   default) or latches it until ``reset()`` (`false`).
  public init(repeats: Bool = true) {
    state = Lock(State(machine: ConditionsStateMachine(repeats: repeats)))
    ReceiverDirectory.register(self)
  }

  deinit {
    ReceiverDirectory.unregister(self)
  }

  /// Whether a completion re-arms every conditioner (`true`, the default) or latches the
  /// receiver until ``reset()`` (`false`).
  ///
  /// Turning `repeats` on while latched re-arms the set, as a completing arrival would have.
  public var repeats: Bool {
    get { state.withLock { $0.machine.repeats } }
    set { state.withLock { $0.machine.setRepeats(newValue) } }
  }

  /// Whether arrivals and ignores are taken into account; `true` by default.
  ///
  /// While `false`, arrivals and ignores are dropped and nothing fires: ``check(_:)`` consumes
  /// nothing and returns `false`, and ``ignore(_:)`` does nothing. Counts already made are
  /// kept, and a shared conditioner keeps reading its registry's count.
  public var isEnabled: Bool {
    get { state.withLock { $0.machine.isEnabled } }
    set { state.withLock { $0.machine.isEnabled = newValue } }
  }

  /// Adds a conditioner to the set.
  ///
  /// Adding does not evaluate the set. A name already in the set is a programming error: it
  /// stops the program with a message naming the name, since two conditioners of one name
  /// could not be told apart by ``check(_:)``.
  ///
  /// - Parameters:
  ///   - conditioner: The name and the number of arrivals per round to wait for.
  ///   - ignorable: Whether ``ignore(_:)`` may mark it met for a round; `true` by default.
  ///     An ignore of a conditioner that is not ignorable does nothing.
  /// - Complexity: O(*n*), where *n* is the number of conditioners.
  public func add(_ conditioner: NotificationConditioner, ignorable: Bool = true) {
    let added = state.withLock {
      $0.machine.add(conditioner.name, minCount: conditioner.minCount, ignorable: ignorable)
    }
    guard added else {
      // `fatalError` rather than `precondition`, whose message optimized builds drop.
      fatalError(
        "NotificationReceiver.add: a conditioner named \"\(conditioner.name)\" is already in the set"
      )
    }
  }

  /// Removes the conditioner named `name`, if the set holds one.
  ///
  /// Removing does not evaluate the set, and does not end a latched verification.
  ///
  /// - Parameter name: The conditioner's name.
  /// - Complexity: O(*n*), where *n* is the number of conditioners.
  public func remove(_ name: String) {
    state.withLock { $0.machine.remove(name) }
  }

  /// Whether the set holds a conditioner named `name`.
  ///
  /// - Parameter name: The name to look up, matched by value.
  /// - Returns: `true` if a local or shared conditioner of that name is in the set.
  /// - Complexity: O(1).
  public func contains(_ name: String) -> Bool {
    state.withLock { $0.machine.contains(name) }
  }

  /// Counts one arrival of `name`, then evaluates the set.
  ///
  /// The arrival consumes one unit of the conditioner of that name. A shared conditioner is
  /// not consumed (its registry counts it: see ``SharedConditioners/arrive(_:)``), and a name
  /// not in the set consumes nothing; both still evaluate the set. When this arrival completes
  /// the set, the ``onVerified(_:fileID:line:)`` handlers run, then the tasks waiting in
  /// ``verified(after:isolation:)-86agy`` or ``verified()`` resume, before `check` returns; the
  /// ``onArrival(_:fileID:line:)`` handlers run before them, once the arrival is counted.
  ///
  /// ```swift
  /// let receiver = NotificationReceiver()
  /// receiver.add(NotificationConditioner("a"))
  /// receiver.add(NotificationConditioner("b"))
  /// receiver.check("a")  // false
  /// receiver.check("b")  // true: completed, and re-armed
  /// receiver.check("a")  // false: a new round
  /// ```
  ///
  /// - Parameter name: The name that arrived.
  /// - Returns: Whether the set is verified after this arrival. With ``repeats``, `true` only
  ///   for the completing arrival; latched, `true` for it and for every arrival after it, of
  ///   any name, in the set or not, until ``reset()``. Always `false` while ``isEnabled`` is
  ///   `false`.
  /// - Complexity: O(*n*), where *n* is the number of conditioners.
  @discardableResult
  public func check(_ name: String) -> Bool {
    let (arrival, due) = state.withLock { state in
      let arrival = state.machine.arrival(name)
      return (arrival, arrival.evaluation.didComplete ? state.waiters.complete() : [])
    }
    if arrival.isCounted { arrivalHandlers.post(name) }
    if arrival.evaluation.didComplete { announceCompletion(resuming: due) }
    return arrival.evaluation.isVerified
  }

  /// Counts one arrival of `name`, then hands the result to `verify`.
  ///
  /// The call shape of IRNotificationReceiver's `checkConditionsWith:verifity:`; the same as
  /// `verify(check(name))`. While ``isEnabled`` is `false`, `verify` gets `false`.
  ///
  /// - Parameters:
  ///   - name: The name that arrived.
  ///   - verify: Called once, on the calling thread before this method returns, with what
  ///     ``check(_:)`` would return, after the ``onVerified(_:fileID:line:)`` handlers written in
  ///     nonisolated code have run (those isolated to an actor may run later, on it).
  public func check(_ name: String, verify: (Bool) -> Void) {
    verify(check(name))
  }

  /// Whether the set is verified now.
  ///
  /// A pure query: it never consumes an arrival, re-arms, or fires anything. `true` while
  /// latched, or when every conditioner is met in the current round; with ``repeats``, the
  /// completing arrival re-arms the set, so it reads `false` right after a completion unless
  /// the set is made only of met shared conditioners. It reports the state whatever
  /// ``isEnabled`` is.
  public var isVerified: Bool {
    state.withLock { $0.machine.isVerified }
  }

  /// The arrivals that `name` still needs in the current round.
  ///
  /// - Parameter name: The conditioner's name.
  /// - Returns: `minCount` minus the arrivals counted this round (for a shared conditioner,
  ///   minus its registry's count), never below 0; 0 for a conditioner ignored this round, and
  ///   0 for a name not in the set, which needs nothing.
  /// - Complexity: O(1).
  public func remaining(_ name: String) -> Int {
    state.withLock { $0.machine.remaining(name) }
  }

  /// Marks the ignorable conditioner `name` met for the current round, tells the
  /// ``onIgnored(_:fileID:line:)`` handlers, then evaluates the set (it may complete it).
  ///
  /// Use it on the failure path: a request that failed still ends the round. Nothing happens
  /// when ``isEnabled`` is `false`, when `name` is not in the set, or when its conditioner was
  /// added with `ignorable: false`: a condition that must not be skipped is not skipped, and
  /// no handler hears of it. Each accepted ignore is reported, also a repeated one.
  ///
  /// The `onIgnored` handlers run before that evaluation, so they see `name` met
  /// (`remaining(name) == 0`), not the next round that a completion re-arms.
  ///
  /// - Parameter name: The conditioner's name, matched by value.
  /// - Complexity: O(*n*), where *n* is the number of conditioners.
  public func ignore(_ name: String) {
    guard state.withLock({ $0.machine.markIgnored(name) }) else { return }
    ignoredHandlers.post(name)
    let (evaluation, due) = state.withLock { state in
      let evaluation = state.machine.evaluateIgnore()
      return (evaluation, evaluation.didComplete ? state.waiters.complete() : [])
    }
    if evaluation.didComplete { announceCompletion(resuming: due) }
  }

  /// Re-arms every conditioner: counts back to zero, ignores cleared, a latched verification
  /// ended.
  ///
  /// Shared conditioners keep their registry's count (only ``SharedConditioners/reset(_:)``
  /// re-arms them), so a set of met shared conditioners stays verified. Fires nothing.
  ///
  /// - Complexity: O(*n*), where *n* is the number of conditioners.
  public func reset() {
    state.withLock { $0.machine.reset() }
  }

  /// Calls `handler` each time the set completes.
  ///
  /// Handlers run in the order they were added, on the thread whose arrival or ignore
  /// completed the set, or on the actor they were written on (see ``NotificationReceiver``).
  ///
  /// - Parameters:
  ///   - handler: The code to run on each completion.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A subscription that keeps the handler registered: cancel or release it to
  ///   stop. The receiver does not keep it alive.
  public func onVerified(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable () -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let call = IsolatedHandler.callable(handler)
    let entry = ObserverEntry<Void>(delivery: .synchronous, isolation: handler.isolation) { _ in
      call()
    }
    entry.site = RegistrationSite(.closure, fileID: fileID, line: line)
    return verifiedHandlers.subscribe(entry, endsWithToken: true)
  }

  /// Calls `handler` with the name of each conditioner that ``ignore(_:)`` marks met.
  ///
  /// Handlers run in the order they were added, on the ignoring thread or on the actor they were
  /// written on, before any ``onVerified(_:fileID:line:)`` handler that the ignore triggers.
  ///
  /// - Parameters:
  ///   - handler: The code to run, given the ignored name.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A subscription that keeps the handler registered: cancel or release it to
  ///   stop.
  public func onIgnored(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (String) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let entry = ObserverEntry(delivery: .synchronous, isolatedHandler: handler)
    entry.site = RegistrationSite(.closure, fileID: fileID, line: line)
    return ignoredHandlers.subscribe(entry, endsWithToken: true)
  }

  /// Suspends until the set is verified: at once when it is verified now, otherwise at the
  /// next completion.
  ///
  /// "Verified now" is what ``isVerified`` reads: a latched receiver (``repeats`` `== false`)
  /// that has completed and has not been reset returns at once. Otherwise only a completion
  /// after the call counts, not one just before it.
  ///
  /// Use it for arrivals that something else starts, such as a login elsewhere in the app. To
  /// wait for arrivals that your own code starts, use ``verified(after:isolation:)-86agy`` instead:
  /// it registers the wait before your code runs. Starting the work beside a call to
  /// `verified()` (with `async let`, or a `Task` that waits) races: the child task registers
  /// its wait only when it first runs, which may be after the arrivals have completed the set,
  /// and it then waits for a completion that never comes.
  ///
  /// ```swift
  /// await session.verified()  // the user logs in elsewhere in the app
  /// ```
  ///
  /// If the waiting task is cancelled, the call returns at once without a completion; check
  /// `Task.isCancelled` when that matters. Thread-safe; any number of tasks may wait.
  public func verified() async {
    await verified(after: {})
  }

  /// Runs `work`, which starts what will arrive, then suspends until the set completes: the
  /// way to wait, without a race, for arrivals that your own code starts.
  ///
  /// The wait is registered before `work` runs, so the first completion after the call counts,
  /// even when every arrival happened inside `work`, or on threads that it started, before the
  /// task suspended:
  ///
  /// ```swift
  /// @MainActor
  /// func load() async {
  ///   await receiver.verified {
  ///     startRequests()  // they may answer, on any thread, before the task suspends
  ///   }
  ///   showScreen()
  /// }
  /// ```
  ///
  /// A completion before the call does not count. When the set is verified once `work` has
  /// returned (``isVerified`` reads `true`: a latched receiver that has completed and has not
  /// been reset), the call returns at once, since such a set completes again only after a
  /// ``reset()`` that may never come. To wait for a fresh round of a latched receiver, call
  /// `reset()` before the call, or first thing in `work`.
  ///
  /// `work` runs exactly once, synchronously, before the task suspends, with no lock held: it
  /// may check, ignore or reset this receiver. It runs even when the task is already cancelled.
  /// It runs on the caller's actor (the `isolation` argument, left to its default), so it may
  /// use the caller's state; from nonisolated code, it runs on the task's executor.
  ///
  /// If the waiting task is cancelled, the call returns at once without a completion; check
  /// `Task.isCancelled` when that matters. Thread-safe; any number of tasks may wait.
  ///
  /// - Parameters:
  ///   - work: Starts whatever will arrive: requests, timers, posts.
  ///   - isolation: The actor that `work` runs on: the caller's, by default, which lets `work`
  ///     use the caller's state without being `Sendable`.
  public func verified(
    after work: () -> Void, isolation: isolated (any Actor)? = #isolation
  ) async {
    let wait = beginWait()
    work()
    // Cancellation is the only error without a timeout, and this form reports it by returning.
    _ = await endWait(wait, timeout: nil)
  }

  /// Runs the `onVerified` handlers, then resumes the waiters, with no lock held.
  func announceCompletion(resuming due: [Waiter]) {
    verifiedHandlers.post(())
    for waiter in due { waiter.finish(.success(())) }
  }
}
