/// A container that keeps subscriptions alive and cancels them together.
///
/// Give an object one bag and put every subscription it makes into it; releasing the object
/// releases the bag, which cancels them all.
///
/// ```swift
/// let bag = SubscriptionBag()
/// didLogin.subscribe { name in print(name) }.store(in: bag)
/// bag.cancelAll()
/// ```
///
/// ### Threading
/// Every member is thread-safe. Cancellation actions run after the bag's lock is released.
public final class SubscriptionBag: Sendable {
  private struct Contents: Sendable {
    var subscriptions: [Subscription] = []
    var pruneThreshold = 32
  }

  private let contents = Lock(Contents())

  /// Creates an empty bag.
  public init() {}

  deinit {
    cancelAll()
  }

  /// Adds a subscription to the bag.
  ///
  /// Subscriptions that were cancelled meanwhile are dropped when the bag grows, so a bag that
  /// lives long does not accumulate dead tokens.
  ///
  /// - Parameter subscription: The subscription to keep alive.
  /// - Complexity: Amortised O(1).
  public func insert(_ subscription: Subscription) {
    let dropped = contents.withLock { contents -> [Subscription] in
      contents.subscriptions.append(subscription)
      guard contents.subscriptions.count >= contents.pruneThreshold else { return [] }
      var dropped: [Subscription] = []
      contents.subscriptions.removeAll { subscription in
        guard subscription.hasEnded else { return false }
        dropped.append(subscription)
        return true
      }
      contents.pruneThreshold = max(32, contents.subscriptions.count * 2)
      return dropped
    }
    // Released here, after the lock: a token's deinit may run user code.
    _ = dropped
  }

  /// Cancels every subscription in the bag and empties it.
  public func cancelAll() {
    let all = contents.withLock { contents in
      defer { contents.subscriptions = [] }
      return contents.subscriptions
    }
    for subscription in all { subscription.cancel() }
  }

  /// The number of subscriptions in the bag that are not cancelled.
  ///
  /// - Complexity: O(*n*), where *n* is the number of subscriptions inserted since the last
  ///   prune.
  public var count: Int {
    let all = contents.withLock { $0.subscriptions }
    return all.reduce(0) { $0 + ($1.isCancelled ? 0 : 1) }
  }
}
