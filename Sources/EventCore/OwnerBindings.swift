#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// Keeps bound subscriptions alive for as long as their owners live.
///
/// On Apple platforms each subscription rides on its owner as an associated object, so it is
/// released, and so cancelled, when the owner is; cancelling it detaches it from its owners, so
/// an owner that binds and cancels in a loop does not keep every token for its whole life. Linux
/// has no associated objects: there a registry holds the subscriptions with weak references to
/// their owners and drops the dead and the cancelled ones in a sweep that runs when the registry
/// has doubled since the last one, so its size stays proportional to the live bindings and each
/// `bind` costs amortised O(1).
enum OwnerBindings {
  #if canImport(ObjectiveC)
    /// The owners a subscription is attached to, held weakly.
    final class Owners: Sendable {
      let boxes = Lock<[WeakBox]>([])
    }

    static func retain(_ subscription: Subscription, whileAlive owner: AnyObject) {
      objc_setAssociatedObject(owner, key(subscription), subscription, .OBJC_ASSOCIATION_RETAIN)
      let owners =
        subscription.boundOwners.load() ?? subscription.boundOwners.storeIfNil(Owners())
      owners.boxes.withLock { $0.append(WeakBox(owner)) }
    }

    /// Removes the cancelled `subscription` from the owners it is attached to. The weak loads,
    /// and the release of the token that removing it may cause, happen outside any lock.
    static func detach(_ subscription: Subscription) {
      guard let owners = subscription.boundOwners.load() else { return }
      let boxes = owners.boxes.withLock { boxes in
        defer { boxes = [] }
        return boxes
      }
      for box in boxes {
        guard let owner = box.object else { continue }
        objc_setAssociatedObject(owner, key(subscription), nil, .OBJC_ASSOCIATION_RETAIN)
      }
    }

    private static func key(_ subscription: Subscription) -> UnsafeRawPointer {
      UnsafeRawPointer(Unmanaged.passUnretained(subscription).toOpaque())
    }
  #else
    private struct Binding: Sendable {
      let owner: WeakBox
      let subscription: Subscription
    }

    private struct Registry: Sendable {
      var bindings: [Binding] = []
      var sweepThreshold = 64
    }

    private static let registry = Lock(Registry())

    static func retain(_ subscription: Subscription, whileAlive owner: AnyObject) {
      let binding = Binding(owner: WeakBox(owner), subscription: subscription)
      let due = registry.withLock { registry -> [Binding]? in
        registry.bindings.append(binding)
        guard registry.bindings.count >= registry.sweepThreshold else { return nil }
        defer { registry.bindings = [] }
        return registry.bindings
      }
      if let due { sweep(due) }
    }

    /// Nothing to do at once: the next sweep drops the cancelled binding.
    static func detach(_ subscription: Subscription) {}

    /// Checks owners outside the lock (a weak load may end in a `deinit`), cancels the bindings
    /// whose owner is gone, and puts the rest back.
    private static func sweep(_ bindings: [Binding]) {
      var kept: [Binding] = []
      var ended: [Subscription] = []
      for binding in bindings where !binding.subscription.hasEnded {
        // An owner of a registration isolated to an actor is loaded only there (guarantee 12):
        // its own deliveries, or the check its list schedules there, end it once it is gone.
        let checkable = binding.subscription.liveness?.mayLoadReferencesHere ?? true
        if !checkable || binding.owner.isAlive {
          kept.append(binding)
        } else {
          ended.append(binding.subscription)
        }
      }
      registry.withLock { registry in
        registry.bindings.append(contentsOf: kept)
        registry.sweepThreshold = max(64, registry.bindings.count * 2)
      }
      for subscription in ended { subscription.cancel() }
    }
  #endif
}
