#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// Keeps bound subscriptions alive for as long as their owners live.
///
/// On Apple platforms each owner carries the list of its subscriptions as an associated object,
/// so they are released, and so cancelled, when the owner is. Linux has no associated objects:
/// there one registry holds every binding with a weak reference to its owner, and cancels the
/// bindings whose owner is gone.
///
/// A registration can end without its token's `cancel()`: a once-registration after its call,
/// an `unregister`, a re-registration, its observer's death. Nothing tells the token, so both
/// lists drop ended subscriptions the same way, however they ended: in a sweep that runs when
/// the list has doubled since the last one. An owner that binds in a loop then holds at most
/// about twice its live bindings, and each `bind` costs amortised O(1).
package enum OwnerBindings {
  #if canImport(ObjectiveC)
    /// The key of an owner's `BoundList`: the address of an object that lives as long as the
    /// process and is used for nothing else.
    private final class Key: Sendable {}
    private static let key = Key()
    /// Serialises creating an owner's list, so that two threads binding to the same owner at
    /// once share one.
    private static let creation = Lock(())

    static func retain(_ subscription: Subscription, whileAlive owner: AnyObject) {
      // The tokens the sweep dropped are released here, outside any lock: a release may run a
      // token's deinit.
      _ = list(of: owner).append(subscription) { !$0.hasEnded }
    }

    /// The number of subscriptions `owner` holds, ended ones included, for tests.
    package static func bindingCount(of owner: AnyObject) -> Int {
      existingList(of: owner)?.elements.count ?? 0
    }

    private static func list(of owner: AnyObject) -> BoundList<Subscription> {
      if let list = existingList(of: owner) { return list }
      return creation.withLock { _ in
        if let list = existingList(of: owner) { return list }
        // The owner had no list under this key, so setting it releases nothing.
        let list = BoundList<Subscription>(sweepsFrom: 8)
        objc_setAssociatedObject(owner, address(of: key), list, .OBJC_ASSOCIATION_RETAIN)
        return list
      }
    }

    private static func existingList(of owner: AnyObject) -> BoundList<Subscription>? {
      objc_getAssociatedObject(owner, address(of: key)) as? BoundList<Subscription>
    }

    private static func address(of key: Key) -> UnsafeRawPointer {
      UnsafeRawPointer(Unmanaged.passUnretained(key).toOpaque())
    }
  #else
    private struct Binding: Sendable {
      let owner: WeakBox
      let subscription: Subscription
    }

    private static let registry = BoundList<Binding>(sweepsFrom: 64)

    static func retain(_ subscription: Subscription, whileAlive owner: AnyObject) {
      let binding = Binding(owner: WeakBox(owner), subscription: subscription)
      // An owner of a registration isolated to an actor is loaded only there (guarantee 12): its
      // own deliveries, or the check its list schedules there, end it once it is gone.
      let dropped = registry.append(binding) { binding in
        guard !binding.subscription.hasEnded else { return false }
        let checkable = binding.subscription.liveness?.mayLoadReferencesHere ?? true
        return !checkable || binding.owner.isAlive
      }
      for binding in dropped where !binding.subscription.hasEnded {
        binding.subscription.cancel()
      }
    }

    /// The number of bindings to `owner` in the registry, ended ones included, for tests.
    package static func bindingCount(of owner: AnyObject) -> Int {
      registry.elements.count { $0.owner.object === owner }
    }
  #endif
}

/// Bindings, checked in a sweep that runs when the list has doubled since the last one, so that
/// its size stays proportional to the bindings it keeps.
///
/// `OwnerBindings` keeps one per owner on Apple platforms and one for the process on Linux.
final class BoundList<Element: Sendable>: Sendable {
  private struct Contents: Sendable {
    var elements: [Element] = []
    var sweepThreshold: Int
  }

  private let contents: Lock<Contents>
  private let minimumThreshold: Int

  /// Creates an empty list whose first sweep runs when it holds `minimumThreshold` elements.
  init(sweepsFrom minimumThreshold: Int) {
    self.minimumThreshold = minimumThreshold
    contents = Lock(Contents(sweepThreshold: minimumThreshold))
  }

  /// Appends `element`, then, if a sweep is due, keeps the elements for which `isKept` holds.
  ///
  /// `isKept` runs outside the lock (it may load weak references, which can end in a `deinit`).
  /// Elements appended while it runs are kept.
  ///
  /// - Returns: The elements the sweep dropped, for the caller to end or release outside any
  ///   lock; empty when no sweep ran.
  func append(_ element: Element, keeping isKept: (Element) -> Bool) -> [Element] {
    let due = contents.withLock { contents -> [Element]? in
      contents.elements.append(element)
      guard contents.elements.count >= contents.sweepThreshold else { return nil }
      defer { contents.elements = [] }
      return contents.elements
    }
    guard let due else { return [] }
    var kept: [Element] = []
    var dropped: [Element] = []
    for element in due {
      if isKept(element) { kept.append(element) } else { dropped.append(element) }
    }
    contents.withLock { contents in
      contents.elements.append(contentsOf: kept)
      contents.sweepThreshold = max(minimumThreshold, contents.elements.count * 2)
    }
    return dropped
  }

  /// The elements now (those a sweep in progress took out excepted), for tests.
  var elements: [Element] {
    contents.withLock { $0.elements }
  }
}
