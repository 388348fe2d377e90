public import Synchronization

/// The cancellation state that a `Subscription` shares with its registration.
///
/// One atomic word holds the cancelled flag and the bound flag. The delivery path reads it
/// immediately before each invocation; `cancel()` sets the cancelled flag and returns at once.
///
/// Why nothing counts invocations in flight: cancelling never waits for a handler (guarantees 2
/// and 6), so a count could only be read, never waited on. And no program can tell an invocation
/// that passed its check just before `cancel()` and was then preempted from one that started
/// just before it: either way the handler runs once, on another thread, and `cancel()` has
/// returned. What the guarantee does promise needs only the flag:
/// - a post that begins after `cancel()` returns reads the flag set (the post first takes the
///   list's lock, which the cancel's removal took after setting it, or it reads the atomic with
///   acquire ordering after the releasing write);
/// - a delivery already queued reads the flag when it runs;
/// - a post in progress on the cancelling thread reads it, in program order, before its next
///   invocation.
///
/// Owners are added by `Subscription.bind(to:)`; once any of them is gone the registration is no
/// longer live.
///
/// A token made from a closure has a `Liveness` of its own; a registration in an `ObserverList`
/// is its own liveness (`ObserverEntry` inherits from this class), which saves an allocation per
/// subscribe.
///
/// `@unchecked Sendable` because the class is not final: its own stored properties are atomics
/// (`state`, `firstOwner`, `moreOwners`), and its subclass states its own reasons.
@usableFromInline package class Liveness: @unchecked Sendable {
  @usableFromInline static let cancelledBit = 1
  @usableFromInline static let boundBit = 2
  /// A registration that runs once: the invocation that sets the cancelled bit is the one.
  @usableFromInline static let onceBit = 4
  /// A registration receiving its replay: live deliveries wait behind it (see `ObserverEntry`).
  @usableFromInline static let replayingBit = 8
  /// A registration holding payloads that an `.untilObserved` list handed to it, not all
  /// started yet (see `ObserverEntry.beginHandOver`).
  @usableFromInline static let handOverBit = 16
  /// A registration whose handed-over payloads its handler's consumer starts, not the call of
  /// the handler (see `ObserverEntry.startsWhereConsumed`).
  @usableFromInline static let consumerStartsBit = 32
  /// A once-registration that runs for the first payload its filter accepts (see
  /// `ObserverEntry.runOnce(where:)`).
  @usableFromInline static let filteredBit = 64
  /// A registration whose handler may refuse a payload (a bounded backlog it queues in, see
  /// `ObserverEntry.refuses(with:)`): it is then not counted as reached.
  @usableFromInline static let refusesBit = 128
  /// The bits that send an invocation off the fast path.
  @usableFromInline static let slowPathBits =
    cancelledBit | boundBit | onceBit | handOverBit | refusesBit

  @usableFromInline let state = Atomic<Int>(0)
  /// The first owner given to `bind(to:)`, checked without a lock on every invocation of an
  /// owner-bound registration; created by the first bind, since most registrations have none.
  private let firstOwner = LazyReference()
  /// Any further owners, rare enough to sit behind a lock.
  private let moreOwners = LazyReference()

  private final class Owners: Sendable {
    let boxes = Lock<[WeakBox]>([])
  }

  @usableFromInline package init() {}

  /// Marks the registration cancelled. Never waits, so it is safe under a lock.
  ///
  /// - Returns: `true` for the call that cancelled it, `false` if it already was.
  @discardableResult
  @usableFromInline package final func cancel() -> Bool {
    state.bitwiseOr(Self.cancelledBit, ordering: .acquiringAndReleasing).oldValue
      & Self.cancelledBit == 0
  }

  /// Ends the registration a token stands for. A registration in a list also leaves the list.
  @usableFromInline package func endRegistration() {
    cancel()
  }

  /// Whether `cancel()` has been called (owners are not consulted).
  @usableFromInline package final var isCancelled: Bool {
    state.load(ordering: .acquiring) & Self.cancelledBit != 0
  }

  /// Whether an invocation may start now: not cancelled, and every bound owner alive.
  ///
  /// Check it immediately before each invocation, on the thread that runs it. Loads weak
  /// references when bound, so call it outside any lock.
  @inlinable
  package final var isLive: Bool {
    let current = state.load(ordering: .acquiring)
    if current & Self.cancelledBit != 0 { return false }
    if current & Self.boundBit != 0 { return ownersAreAlive() }
    return true
  }

  /// Runs `body` if the registration is live; for registrations outside an `ObserverList`.
  ///
  /// - Returns: Whether `body` ran.
  @inlinable
  @discardableResult
  package final func invokeIfLive(_ body: () -> Void) -> Bool {
    guard isLive else { return false }
    body()
    return true
  }

  /// Whether an owner given to `bind(to:)` has been deallocated, as far as the calling thread
  /// may tell (see ``mayLoadReferencesHere``). Call it outside any lock.
  @usableFromInline package final var hasLostOwner: Bool {
    state.load(ordering: .acquiring) & Self.boundBit != 0 && mayLoadReferencesHere
      && !ownersAreAlive()
  }

  /// Whether the calling thread may load the registration's owners (and observer) to check
  /// them: a strong reference taken off the actor of a registration isolated to one could be
  /// the last, and run the object's `deinit` there (guarantee 12; see `ObserverEntry.isAlive`).
  /// Always `true` for a token made from a closure.
  @usableFromInline package var mayLoadReferencesHere: Bool { true }

  @usableFromInline package final func bind(to owner: AnyObject) {
    let box = WeakBox(owner)
    if firstOwner.storeIfNil(box) !== box {
      let more = moreOwners.load(as: Owners.self) ?? moreOwners.storeIfNil(Owners())
      more.boxes.withLock { $0.append(box) }
    }
    state.bitwiseOr(Self.boundBit, ordering: .releasing)
  }

  @usableFromInline final func ownersAreAlive() -> Bool {
    // The weak loads happen outside any lock: see `WeakBox`.
    if let first = firstOwner.load(as: WeakBox.self), !first.isAlive { return false }
    guard let more = moreOwners.load(as: Owners.self) else { return true }
    let boxes = more.boxes.withLock { $0 }
    for box in boxes where !box.isAlive { return false }
    return true
  }
}
