import Synchronization

/// A token for one registration, which ``cancel()`` ends.
///
/// Every registration in Events hands back a `Subscription`, and ``cancel()`` ends any of them.
/// Token-held forms (`Event.subscribe`, the token-held and target-action
/// `NotificationCenter.observe`, `NotificationReceiver.onVerified`...) also end when the last
/// reference to the token goes: keep it in a property, a `Set`, or a ``SubscriptionBag`` for as
/// long as you want the handler to run. Forms bounded by an observer, an owner or a single call
/// (`Event.register`, `Event.subscribeOnce`, `Broadcaster.register`,
/// `NotificationCenter.observe(_:object:owner:delivery:backlog:_:fileID:line:)` and `observeOnce`)
/// outlive their token, which you may drop. <doc:SubscriptionLifetimes> lists every form of each
/// kind. There is no `removeObserver` to forget.
///
/// ```swift
/// final class Screen {
///   private var subscriptions = Set<Subscription>()
///
///   func start(with didLogin: Event<String>) {
///     didLogin.subscribe { name in print("hello, \(name)") }
///       .store(in: &subscriptions)
///   }
/// }
/// ```
///
/// ### Threading
/// Every member is thread-safe, and none of them ever waits for a handler; ``cancel()`` says
/// what is guaranteed once it returns.
public final class Subscription: Hashable, Sendable {
  /// A token made from a closure: its own liveness and its cancellation action (`nil` once it
  /// has run, so it runs exactly once). Both `nil` for a list registration.
  private let ownLiveness: Liveness?
  private let action: Lock<(@Sendable () -> Void)?>?

  /// A list registration's entry, which is its own liveness. Unowned, so that an entry the list
  /// dropped (its observer or owner died) is released, with its handler and what that captured,
  /// even while the token lives on; and not weak, which would give every entry a side table
  /// (see ``UnownedReference``).
  private let registration: UnownedReference<Liveness>

  /// Whether releasing the token ends the registration: `false` for registrations that last as
  /// long as their observer, whose token the caller may drop.
  private let cancelsOnDeinit: Bool

  /// Whether ``cancel()`` has run: the `deinit` of a token already cancelled then skips
  /// reaching for its entry again, which is usually gone by then.
  private let cancelled = Atomic<Bool>(false)

  /// Creates a subscription that runs `onCancel` once, when it is cancelled or deinitialized.
  ///
  /// Use it to give your own resources the same lifetime rules as Events' registrations.
  ///
  /// - Parameter onCancel: The action that ends the registration. It runs at most once, on the
  ///   thread that cancels, with no lock held.
  public convenience init(_ onCancel: @escaping @Sendable () -> Void) {
    self.init(liveness: Liveness(), onCancel)
  }

  /// A token for a registration that checks `liveness` before each invocation and is ended by
  /// `onCancel`.
  @usableFromInline package init(liveness: Liveness, _ onCancel: @escaping @Sendable () -> Void) {
    self.ownLiveness = liveness
    self.action = Lock(onCancel)
    self.registration = UnownedReference(nil)
    self.cancelsOnDeinit = true
  }

  /// A token for a registration in an `ObserverList`.
  // Borrowed: the token takes no strong reference, so an owned argument would only cost a
  // retain and a release.
  @usableFromInline package init(registration: borrowing Liveness, cancelsOnDeinit: Bool) {
    self.ownLiveness = nil
    self.action = nil
    self.registration = UnownedReference(copy registration)
    self.cancelsOnDeinit = cancelsOnDeinit
  }

  deinit {
    if cancelsOnDeinit && !cancelled.load(ordering: .relaxed) { cancel() }
  }

  /// The state the delivery path checks; `nil` once a list registration's entry is gone.
  package var liveness: Liveness? { ownLiveness ?? registration.object }

  /// Whether the registration has been cancelled or dropped, without the side effects of
  /// ``isCancelled``.
  ///
  /// Takes a strong reference to the registration, whose release can be its last (and release
  /// the handler and everything it captured): call it outside any lock.
  package var hasEnded: Bool { liveness?.isCancelled ?? true }

  /// Ends the registration.
  ///
  /// Idempotent: the first call runs the cancellation action, later calls do nothing. A handler
  /// may cancel its own subscription or another one while a post is running.
  ///
  /// When it returns, no invocation of the handler starts for a post that begins afterwards,
  /// for a delivery already queued, or later in a post in progress on this thread. It never
  /// waits for the handler: an invocation that had already started on another thread may still
  /// be running. So you may cancel from anywhere, holding any lock, even one that the running
  /// handler is waiting for.
  public func cancel() {
    cancelled.store(true, ordering: .relaxed)
    if let ownLiveness, let action {
      ownLiveness.cancel()
      let body = action.withLock { body in
        defer { body = nil }
        return body
      }
      body?()
    } else {
      registration.object?.endRegistration()
    }
  }

  /// Whether the registration has ended.
  ///
  /// `true` after ``cancel()``, once the registration was ended another way (an `unregister`,
  /// or its observer deallocated and dropped), and once an owner given to ``bind(to:)`` has been
  /// deallocated (reading it then cancels the subscription, if nothing has yet).
  public var isCancelled: Bool {
    guard let liveness else { return true }
    if liveness.isCancelled { return true }
    if liveness.hasLostOwner {
      cancel()
      return true
    }
    return false
  }

  /// Inserts the subscription into a set that keeps it alive.
  ///
  /// - Parameter set: The set to insert into. Removing it, or releasing the set, cancels it.
  public func store(in set: inout Set<Subscription>) {
    set.insert(self)
  }

  /// Inserts the subscription into a bag that keeps it alive.
  ///
  /// - Parameter bag: The bag to insert into. ``SubscriptionBag/cancelAll()`` or releasing the
  ///   bag cancels it.
  public func store(in bag: SubscriptionBag) {
    bag.insert(self)
  }

  /// Keeps the subscription alive while `owner` lives, then cancels it.
  ///
  /// Use it for a registration that should last exactly as long as an object, without a
  /// property to hold the token:
  ///
  /// ```swift
  /// didLogin.subscribe { name in print(name) }.bind(to: self)
  /// ```
  ///
  /// The owner is held weakly. Once it is gone, no delivery reaches the handler, and
  /// ``isCancelled`` is `true` (with the cancellation action run) at the latest when it is next
  /// read. On Apple platforms the subscription is released with the owner; on Linux, which has
  /// no associated objects, a registry releases it lazily, on a later `bind(to:)`.
  /// You may bind one subscription to several owners: it ends when the first of them is gone.
  ///
  /// Bind to an object whose lifetime you control. On Apple platforms some objects are never
  /// deallocated: tagged pointers (a small `NSNumber` such as `5 as NSNumber`, a short
  /// `NSString`), constant strings and class objects. A subscription bound to one never ends.
  ///
  /// - Parameter owner: The object whose lifetime bounds the registration.
  /// - Returns: The subscription itself, so the call can end a chain.
  @discardableResult
  public func bind(to owner: AnyObject) -> Subscription {
    liveness?.bind(to: owner)
    OwnerBindings.retain(self, whileAlive: owner)
    return self
  }

  /// Two subscriptions are equal when they are the same token.
  public static func == (lhs: Subscription, rhs: Subscription) -> Bool {
    lhs === rhs
  }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
