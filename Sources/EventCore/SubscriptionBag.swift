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
/// Every member is thread-safe and never waits for a handler. Cancellation actions, and the
/// release of whatever an ended registration captured, run after the bag's lock is released.
public final class SubscriptionBag: Sendable {
  private struct Contents: Sendable {
    var subscriptions: [Subscription] = []
    /// The tokens one `insert` took out to check outside the lock, still counted and cancelled
    /// by the bag until they are put back or dropped.
    var pruning: [Subscription] = []
    var isPruning = false
    /// Bumped by `cancelAll`, so that a prune running meanwhile does not put back what it
    /// cancelled.
    var generation = 0
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
    let due = contents.withLock { contents -> (batch: [Subscription], generation: Int)? in
      contents.subscriptions.append(subscription)
      guard !contents.isPruning, contents.subscriptions.count >= contents.pruneThreshold
      else { return nil }
      contents.isPruning = true
      contents.pruning = contents.subscriptions
      contents.subscriptions = []
      return (contents.pruning, contents.generation)
    }
    if let due { prune(due.batch, generation: due.generation) }
  }

  /// Puts the live tokens of `batch` back and drops the ended ones.
  ///
  /// Whether a token has ended is read outside the lock: it loads a weak reference to the
  /// registration, and that load can end up holding its last strong reference, whose release
  /// runs the handler's captures' `deinit`s (which may well use this bag).
  private func prune(_ batch: [Subscription], generation: Int) {
    let live = batch.filter { !$0.hasEnded }
    contents.withLock { contents in
      contents.isPruning = false
      contents.pruning = []
      // A `cancelAll` since the batch was taken cancelled it too: nothing of it goes back.
      guard contents.generation == generation else { return }
      contents.subscriptions.append(contentsOf: live)
      contents.pruneThreshold = max(32, contents.subscriptions.count * 2)
    }
  }

  /// Cancels every subscription in the bag and empties it.
  public func cancelAll() {
    let all = contents.withLock { contents in
      defer {
        contents.subscriptions = []
        contents.pruning = []
        contents.generation += 1
      }
      return contents.subscriptions + contents.pruning
    }
    for subscription in all { subscription.cancel() }
  }

  /// The number of subscriptions in the bag that are not cancelled.
  ///
  /// - Complexity: O(*n*), where *n* is the number of subscriptions inserted since the last
  ///   prune.
  public var count: Int {
    let all = contents.withLock { $0.subscriptions + $0.pruning }
    return all.reduce(0) { $0 + ($1.isCancelled ? 0 : 1) }
  }
}
