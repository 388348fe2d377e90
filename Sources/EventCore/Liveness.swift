import Synchronization

/// The cancellation state that a `Subscription` shares with its registration.
///
/// The delivery path reads it before every invocation without taking a lock, which is how
/// "cancel means cancelled" holds for a post already in progress and for a delivery already
/// queued. Owners are added by `Subscription.bind(to:)`; once any of them is gone the
/// registration is no longer live.
package final class Liveness: Sendable {
  private let cancelled = Atomic<Bool>(false)
  private let isBound = Atomic<Bool>(false)
  private let owners = Mutex<[WeakBox]>([])

  package init() {}

  /// Marks the registration cancelled.
  ///
  /// - Returns: `true` for the call that cancelled it, `false` if it already was.
  @discardableResult
  package func cancel() -> Bool {
    !cancelled.exchange(true, ordering: .acquiringAndReleasing)
  }

  /// Whether `cancel()` has been called (owners are not consulted).
  package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Whether an invocation may start now: not cancelled, and every bound owner alive.
  ///
  /// Loads weak references when bound, so call it outside any lock.
  @inline(__always)
  package var isLive: Bool {
    if cancelled.load(ordering: .acquiring) { return false }
    if isBound.load(ordering: .acquiring) { return ownersAreAlive() }
    return true
  }

  /// Whether an owner given to `bind(to:)` has been deallocated. Call it outside any lock.
  package var hasLostOwner: Bool {
    isBound.load(ordering: .acquiring) && !ownersAreAlive()
  }

  package func bind(to owner: AnyObject) {
    let box = WeakBox(owner)
    owners.withLock { $0.append(box) }
    isBound.store(true, ordering: .releasing)
  }

  private func ownersAreAlive() -> Bool {
    // The weak loads happen after the lock is released: see `WeakBox`.
    let boxes = owners.withLock { $0 }
    for box in boxes where !box.isAlive { return false }
    return true
  }
}
