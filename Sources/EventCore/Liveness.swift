public import Synchronization

/// The cancellation state that a `Subscription` shares with its registration.
///
/// One atomic word holds the cancelled flag, the bound flag and the number of invocations in
/// flight. The delivery path enters an invocation with one atomic add, which either sees the
/// cancelled flag (and backs out) or is seen by `cancel()`, which then waits for it to finish.
/// That is how "after `cancel()` returns, no invocation starts" holds even for a poster that
/// was preempted between its check and the call.
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
  /// Set by a `cancel()` that sleeps until the invocations in flight end.
  @usableFromInline static let waiterBit = 4
  @usableFromInline static let oneInvocation = 8

  @usableFromInline let state = Atomic<Int>(0)
  /// The first owner given to `bind(to:)`, checked without a lock on every invocation of an
  /// owner-bound registration; created by the first bind, since most registrations have none.
  private let firstOwner = AtomicLazyReference<WeakBox>()
  /// Any further owners, rare enough to sit behind a lock.
  private let moreOwners = AtomicLazyReference<Owners>()

  private final class Owners: Sendable {
    let boxes = Lock<[WeakBox]>([])
  }

  @usableFromInline package init() {}

  /// Marks the registration cancelled without waiting; safe under a lock. Pair it with
  /// ``waitForInvocations()`` once the lock is released.
  ///
  /// - Returns: `true` for the call that cancelled it, `false` if it already was.
  @discardableResult
  @usableFromInline package final func markCancelled() -> Bool {
    state.bitwiseOr(Self.cancelledBit, ordering: .acquiringAndReleasing).oldValue
      & Self.cancelledBit == 0
  }

  /// Waits until no invocation is in flight on another thread.
  ///
  /// Does not wait when the caller is itself inside a delivery (a handler cancelling itself or
  /// another registration, on this thread or while another thread runs it): waiting there could
  /// wait on itself, or on a thread that waits on it.
  @usableFromInline package final func waitForInvocations() {
    guard state.load(ordering: .acquiring) >= Self.oneInvocation,
      !DeliveryScope.isActive
    else { return }
    InvocationWaiters.wait(
      announce: { state.bitwiseOr(Self.waiterBit, ordering: .acquiringAndReleasing) },
      until: { state.load(ordering: .acquiring) < Self.oneInvocation })
  }

  /// Ends the registration a token stands for: marks it cancelled and waits for invocations
  /// running on other threads. A registration in a list also leaves the list.
  @usableFromInline package func endRegistration() {
    cancel()
  }

  /// Marks the registration cancelled and waits for invocations running on other threads.
  @discardableResult
  @usableFromInline package final func cancel() -> Bool {
    let cancelledNow = markCancelled()
    waitForInvocations()
    return cancelledNow
  }

  /// Whether `cancel()` has been called (owners are not consulted).
  @usableFromInline package final var isCancelled: Bool {
    state.load(ordering: .acquiring) & Self.cancelledBit != 0
  }

  /// Whether an invocation may start now: not cancelled, and every bound owner alive.
  ///
  /// Loads weak references when bound, so call it outside any lock.
  @inlinable
  package final var isLive: Bool {
    let current = state.load(ordering: .acquiring)
    if current & Self.cancelledBit != 0 { return false }
    if current & Self.boundBit != 0 { return ownersAreAlive() }
    return true
  }

  /// Enters an invocation if the registration is live. Call ``endInvocation()`` after the
  /// handler returns, and only if this returned `true`.
  @inlinable
  package final func beginInvocation() -> Bool {
    let previous = state.wrappingAdd(Self.oneInvocation, ordering: .acquiringAndReleasing)
      .oldValue
    if previous & Self.cancelledBit != 0
      || (previous & Self.boundBit != 0 && !ownersAreAlive())
    {
      endInvocation()
      return false
    }
    return true
  }

  /// Runs `body` as one invocation, if the registration is live: counted in flight (so a
  /// `cancel()` on another thread waits for it) and marked as a delivery on this thread (so a
  /// cancel from inside it does not wait). For registrations outside an `ObserverList`.
  ///
  /// - Returns: Whether `body` ran.
  @inlinable
  @discardableResult
  package final func invokeIfLive(_ body: () -> Void) -> Bool {
    guard beginInvocation() else { return false }
    defer { endInvocation() }
    DeliveryScope.run(body)
    return true
  }

  @inlinable
  package final func endInvocation() {
    let previous = state.wrappingSubtract(Self.oneInvocation, ordering: .acquiringAndReleasing)
      .oldValue
    // The last invocation in flight wakes a cancel waiting for it.
    if previous & Self.waiterBit != 0 && previous < 2 * Self.oneInvocation {
      InvocationWaiters.wakeAll()
    }
  }

  /// Whether an owner given to `bind(to:)` has been deallocated. Call it outside any lock.
  @usableFromInline package final var hasLostOwner: Bool {
    state.load(ordering: .acquiring) & Self.boundBit != 0 && !ownersAreAlive()
  }

  @usableFromInline package final func bind(to owner: AnyObject) {
    let box = WeakBox(owner)
    if firstOwner.storeIfNil(box) !== box {
      let more = moreOwners.load() ?? moreOwners.storeIfNil(Owners())
      more.boxes.withLock { $0.append(box) }
    }
    state.bitwiseOr(Self.boundBit, ordering: .releasing)
  }

  @usableFromInline final func ownersAreAlive() -> Bool {
    // The weak loads happen outside any lock: see `WeakBox`.
    if let first = firstOwner.load(), !first.isAlive { return false }
    guard let more = moreOwners.load() else { return true }
    let boxes = more.boxes.withLock { $0 }
    for box in boxes where !box.isAlive { return false }
    return true
  }
}
