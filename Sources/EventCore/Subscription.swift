/// A token that keeps one registration alive and ends it when cancelled or released.
///
/// Every registration in Events hands back a `Subscription`. Keep it in a property, a `Set`, or a
/// ``SubscriptionBag`` for as long as you want the handler to run; call ``cancel()`` or let the
/// last reference go to end it. There is no `removeObserver` to forget.
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
/// Every member is thread-safe. After ``cancel()`` returns, no new invocation of the handler
/// starts on any thread, even for a post already in progress or a delivery already queued; an
/// invocation already running on another thread may finish.
public final class Subscription: Hashable, Sendable {
  /// Shared with the registration, which reads it before every invocation.
  @usableFromInline package let liveness: Liveness

  /// The cancellation action; `nil` once it has run, so it runs exactly once.
  private let onCancel: Lock<(@Sendable () -> Void)?>

  /// Creates a subscription that runs `onCancel` once, when it is cancelled or deinitialized.
  ///
  /// Use it to give your own resources the same lifetime rules as Events' registrations.
  ///
  /// - Parameter onCancel: The action that ends the registration. It runs at most once, on the
  ///   thread that cancels, with no lock held.
  public convenience init(_ onCancel: @escaping @Sendable () -> Void) {
    self.init(liveness: Liveness(), onCancel)
  }

  @usableFromInline package init(liveness: Liveness, _ onCancel: @escaping @Sendable () -> Void) {
    self.liveness = liveness
    self.onCancel = Lock(onCancel)
  }

  deinit {
    cancel()
  }

  /// Ends the registration.
  ///
  /// Idempotent and thread-safe: the first call runs the cancellation action, later calls do
  /// nothing. A handler may cancel its own subscription or another one while a post is running.
  public func cancel() {
    liveness.cancel()
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  /// Whether the registration has ended.
  ///
  /// `true` after ``cancel()``, and once an owner given to ``bind(to:)`` has been deallocated
  /// (reading it then cancels the subscription, if nothing has yet).
  public var isCancelled: Bool {
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
  /// - Parameter owner: The object whose lifetime bounds the registration.
  /// - Returns: The subscription itself, so the call can end a chain.
  @discardableResult
  public func bind(to owner: AnyObject) -> Subscription {
    liveness.bind(to: owner)
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
