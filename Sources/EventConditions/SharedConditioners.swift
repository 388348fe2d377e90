public import EventCore
public import Foundation
import Synchronization

/// A registry of arrival counts that several receivers share.
///
/// Use it for an event that many screens wait on and that happens once for all of them, such
/// as logging in. Each screen's receiver holds the registry's conditioner; the registry counts
/// the arrivals:
///
/// ```swift
/// let loggedIn = SharedConditioners.shared.conditioner("logged-in")
/// profileScreen.receiver.add(loggedIn)
/// friendsScreen.receiver.add(loggedIn)
///
/// SharedConditioners.shared.arrive("logged-in")  // both receivers advance, once each
/// ```
///
/// The registry counts arrivals per name from its creation or the name's last ``reset(_:)``,
/// also before any receiver asked for that name, so a login that happened before the first
/// screen asked is not lost. A receiver's own re-arm (a completion with `repeats`, or its
/// `reset()`) never resets a shared count.
///
/// ### Threading
/// Every member is thread-safe. Holders are updated on the thread that reports the arrival,
/// after the registry's lock is released. Their `onVerified` handlers written in nonisolated
/// code run there, before ``arrive(_:)`` returns; handlers isolated to an actor run on that
/// actor, scheduled onto it when the arrival is reported elsewhere.
public final class SharedConditioners: Sendable {
  /// The registry most apps need: one per process.
  public static let shared = SharedConditioners()

  private static let ids = Atomic<UInt64>(0)

  private struct Tally: Sendable {
    /// Set once the name is handed out as a conditioner.
    var minCount: Int?
    var count = 0
    /// The registry's version when `count` last changed.
    var version: UInt64 = 0
  }

  private struct State: Sendable {
    var tallies: [String: Tally] = [:]
    /// Bumped on every change, so holders can drop updates that arrive out of order.
    var version: UInt64 = 0
  }

  /// Distinguishes registries for equality without relying on addresses, which are reused.
  let id: UInt64
  private let state = Lock(State())
  /// The receivers holding a conditioner of this registry, held weakly, one entry each.
  private let holders = ObserverList<SharedUpdate>()

  /// Creates an empty registry, separate from ``shared`` and from every other one.
  public init() {
    id = Self.ids.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// The registry's conditioner for `name`, created on first use.
  ///
  /// Asking again for the same name returns an equal conditioner. Asking with another
  /// `minCount`, or with a `minCount` below 1, is a programming error that stops the program
  /// with a message naming the name.
  ///
  /// - Parameters:
  ///   - name: The name to count.
  ///   - minCount: Arrivals needed before holders count it met; at least 1, and the same on
  ///     every call for one name.
  /// - Returns: A conditioner to add to receivers.
  /// - Complexity: O(1). Thread-safe.
  public func conditioner(_ name: String, minCount: Int = 1) -> SharedConditioner {
    // `fatalError` rather than `precondition`, whose message optimized builds drop.
    guard minCount >= 1 else {
      fatalError(
        "SharedConditioners.conditioner(\"\(name)\", minCount: \(minCount)): minCount must be at least 1"
      )
    }
    let existing = state.withLock { state -> Int? in
      if let existing = state.tallies[name]?.minCount { return existing }
      state.tallies[name, default: Tally()].minCount = minCount
      return nil
    }
    if let existing, existing != minCount {
      fatalError(
        "SharedConditioners.conditioner(\"\(name)\", minCount: \(minCount)): \"\(name)\" was already handed out with minCount \(existing)"
      )
    }
    return SharedConditioner(name: name, minCount: minCount, registry: self)
  }

  /// Counts one arrival of `name`: every receiver holding its conditioner advances once.
  ///
  /// Holders re-evaluate on the calling thread, and those that this arrival completes run
  /// their `onVerified` handlers there, before `arrive` returns. A name not handed out yet is
  /// counted too, for the receivers that ask later.
  ///
  /// - Parameter name: The name that arrived.
  /// - Complexity: O(*h*) over the *h* receivers holding a conditioner of this registry.
  ///   Thread-safe.
  public func arrive(_ name: String) {
    let update = state.withLock { state in
      state.version += 1
      state.tallies[name, default: Tally()].count += 1
      state.tallies[name]!.version = state.version
      return SharedUpdate(
        name: name, count: state.tallies[name]!.count, version: state.version, isArrival: true)
    }
    holders.post(update)
  }

  /// The arrivals that `name` still needs before holders count it met.
  ///
  /// - Parameter name: The name to look up.
  /// - Returns: Its `minCount` minus the arrivals since creation or the last ``reset(_:)``,
  ///   never below 0; 0 for a name never handed out as a conditioner.
  /// - Complexity: O(1). Thread-safe.
  public func remaining(_ name: String) -> Int {
    state.withLock { state in
      guard let tally = state.tallies[name], let minCount = tally.minCount else { return 0 }
      return max(0, minCount - tally.count)
    }
  }

  /// Re-arms `name`: its count goes back to zero in the registry and in every holder.
  ///
  /// The only way to re-arm a shared conditioner. Holders whose set it unverifies can complete
  /// again, and fire again, once it has arrived anew.
  ///
  /// - Parameter name: The name to re-arm.
  /// - Complexity: O(*h*) over the *h* receivers holding a conditioner of this registry.
  ///   Thread-safe.
  public func reset(_ name: String) {
    let update = state.withLock { state -> SharedUpdate? in
      guard state.tallies[name] != nil else { return nil }
      state.version += 1
      state.tallies[name]!.count = 0
      state.tallies[name]!.version = state.version
      return SharedUpdate(name: name, count: 0, version: state.version, isArrival: false)
    }
    if let update { holders.post(update) }
  }

  /// Counts each notification named `name` that `center` delivers as one ``arrive(_:)`` of
  /// `name.rawValue`.
  ///
  /// ```swift
  /// SharedConditioners.shared.listen(to: Notification.Name("LoggedIn"))
  ///   .store(in: sessionSubscriptions)  // a SubscriptionBag that lives as long as the session
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification to count; its raw value is the conditioner's name.
  ///   - center: The center to observe; `.default` unless given.
  ///   - object: Count only notifications posted by this object, matched by identity and held
  ///     weakly; `nil`, the default, counts any sender.
  /// - Returns: A subscription that keeps counting: cancel or release it to stop. It holds the
  ///   registry weakly.
  /// - Complexity: O(1) per registration. Thread-safe; arrivals run on the posting thread.
  public func listen(
    to name: Notification.Name, center: NotificationCenter = .default, object: AnyObject? = nil
  ) -> Subscription {
    let conditionerName = name.rawValue
    return ArrivalObservation.observe(name, center: center, object: object) { [weak self] in
      self?.arrive(conditionerName)
    }
  }

  /// Makes `receiver` hear every change of this registry, holding it weakly, until it is
  /// released or the returned token is cancelled.
  ///
  /// Each call adds a registration, so two racing follows of one receiver both hear every
  /// change until one is cancelled. Call it with no lock held: the insert's purge loads weak
  /// references, and may release other receivers.
  func follow(_ receiver: NotificationReceiver) -> Subscription {
    let registry = id
    return holders.subscribe(
      ObserverEntry(observer: receiver, keyed: false, delivery: .synchronous) {
        receiver, update in
        receiver.receiveShared(update, from: registry)
      },
      endsWithToken: false)
  }

  /// The current count of `name` and its version.
  func tally(_ name: String) -> (count: Int, version: UInt64) {
    state.withLock { state in
      let tally = state.tallies[name] ?? Tally()
      return (tally.count, tally.version)
    }
  }
}

/// A registry's new count for one name, sent to its holders.
struct SharedUpdate: Sendable {
  let name: String
  let count: Int
  let version: UInt64
  /// An arrival, rather than a reset: holders tell their `onArrival` handlers.
  let isArrival: Bool
}
