public import EventCore
public import Foundation

extension NotificationCenter {
  /// Observes notifications until the returned subscription is cancelled or released.
  ///
  /// Keep the token for as long as you want the handler to run; there is no `removeObserver` to
  /// call. Reassigning the property that holds it ends the old observation:
  ///
  /// ```swift
  /// final class Inbox {
  ///   private var token: Subscription?
  ///
  ///   func start() {
  ///     token = NotificationCenter.default.observe(.NSSystemClockDidChange) { note in
  ///       print("clock changed: \(note.name.rawValue)")
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Observers of one name on one center are called in the order they registered. A post of a
  /// name reaches both the observers of that name and those with a `nil` name; the order between
  /// those two groups is the center's and is unspecified.
  ///
  /// ### Threading
  /// What follows holds for every `observe` form of a notification name (owner, target-action,
  /// ``observeOnce(_:object:delivery:_:fileID:line:)``); each says only where it differs.
  /// Thread-safe. A handler written in nonisolated code runs as `delivery` says: on the posting
  /// thread before `post` returns (`.synchronous`), asynchronously on a queue in post order
  /// (`.queue(_:)`, and `post` does not wait for it, where Foundation's `post` waits for the
  /// observers it queued), or on the main actor (`.mainActor`). A handler written in code
  /// isolated to an actor (a closure in a `@MainActor` class) runs on that actor whatever
  /// `delivery` says. After ``/EventCore/Subscription/cancel()`` returns, the handler is not
  /// started again, even for a delivery already queued. "What runs where" in the Events
  /// documentation lists every form of every module.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender. Once it is deallocated the observation matches nothing.
  ///   - delivery: Where and when the handler runs. Defaults to `.synchronous`.
  ///   - backlog: The most calls this observation may have waiting when its handler runs later,
  ///     and which go when there are more (reported to ``onDrop(_:)``); unbounded by default.
  ///   - handler: The closure to call with each matching notification.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  /// - Complexity: Amortised O(1) to register; a post costs O(*n*) in the observers of its
  ///   name that it reaches: those without a sender filter and those of its sender. Observers of
  ///   other senders cost it nothing.
  public func observe(
    _ name: Notification.Name?, object: AnyObject? = nil, delivery: Delivery = .synchronous,
    backlog: Backlog = .unbounded,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Notification) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let (lease, entry) = closureRegistration(
      name, object: object, delivery: delivery, backlog: backlog, handler)
    entry.site = RegistrationSite(.closure, fileID: fileID, line: line)
    return lease.subscribe(entry)
  }

  /// The lease and entry of a closure observation, not yet subscribed: the entry calls
  /// `handler` on its isolation (or as `delivery` says, when it has none).
  func closureRegistration(
    _ name: Notification.Name?, object: AnyObject?, delivery: Delivery, backlog: Backlog,
    _ handler: @escaping @isolated(any) @Sendable (Notification) -> Void
  ) -> (ChannelLease, ObserverEntry<PostedNotification>) {
    let lease = ChannelRegistry.shared.lease(center: self, name: name, sender: object)
    // The handler itself, with no closure around it (see `PostedHandler`); called only on
    // `handler.isolation`: why this is sound is in `IsolatedHandler`. The sender filter is
    // applied before the entry is reached: it is in its sender's group.
    let entry = ObserverEntry<PostedNotification>(
      delivery: delivery, isolation: handler.isolation,
      handler: PostedHandler.callable(IsolatedHandler.callable(sendable: handler)))
    bound(entry, by: backlog, name: name)
    return (lease, entry)
  }

  /// Observes notifications for as long as `owner` lives, handing the owner to the handler.
  ///
  /// Nothing to store, no `deinit`, no `[weak self]`: the owner is held weakly and passed to
  /// the handler for each call, and the observation ends with it.
  ///
  /// ```swift
  /// @MainActor final class Cache {
  ///   private var items: [String: Data] = [:]
  ///
  ///   init(center: NotificationCenter) {
  ///     center.observe(.init("MemoryWarning"), owner: self) { cache, _ in
  ///       cache.items.removeAll()
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Once the owner is deallocated the handler is never called again, and the registration is
  /// released: at once on Apple platforms, where it rides on the owner; on Linux, which has no
  /// associated objects, by the next post of that name or a later binding. You may keep the
  /// returned token to end the observation earlier. Several observations on one owner are
  /// independent, and each delivers once per post.
  ///
  /// ### Threading
  /// As ``observe(_:object:delivery:backlog:_:fileID:line:)`` says. The owner is kept alive for
  /// the call only; from nonisolated code it must be `Sendable` (a `@MainActor` class is). An
  /// actor observes as its own owner with ``observe(_:object:owner:backlog:_:fileID:line:)``.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - owner: The object whose lifetime bounds the observation, `Sendable`. It is not
  ///     retained.
  ///   - delivery: Where and when the handler runs. Defaults to `.synchronous`.
  ///   - backlog: The most calls this observation may have waiting when its handler runs later,
  ///     and which go when there are more (reported to ``onDrop(_:)``); unbounded by default.
  ///   - handler: The closure to call with the owner and each matching notification.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the observation when cancelled. You may ignore it; releasing
  ///   it does not end the observation.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    _ name: Notification.Name?, object: AnyObject? = nil, owner: Owner,
    delivery: Delivery = .synchronous, backlog: Backlog = .unbounded,
    @_inheritActorContext _ handler:
      @escaping @isolated(any) @Sendable (Owner, Notification)
      -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    observe(
      name, object: object, observer: owner, delivery: delivery, backlog: backlog,
      isolation: handler.isolation,
      site: RegistrationSite(.observer(Owner.self), fileID: fileID, line: line),
      // Called only on `handler.isolation`: why this is sound is in `IsolatedHandler`.
      IsolatedHandler.callable(observer: handler)
    )
    .bind(to: owner)
  }

  /// Observes notifications by calling a method of `target` that takes the notification.
  ///
  /// The target-action form: `action` is an unbound method, such as `Screen.refresh`, so no
  /// closure captures the target.
  ///
  /// ```swift
  /// final class Indexer: Sendable {
  ///   func start(center: NotificationCenter) -> Subscription {
  ///     center.observe(.init("ModelDidChange"), target: self, action: Indexer.reindex)
  ///   }
  ///
  ///   func reindex(_ note: Notification) {}
  /// }
  /// ```
  ///
  /// The target is held weakly: once it is deallocated the method is never called again. The
  /// observation lasts until the returned token is cancelled or released.
  ///
  /// ### Threading
  /// As ``observe(_:object:delivery:backlog:_:fileID:line:)`` says, except that Swift drops a
  /// method's isolation when it converts the unbound method: the method runs on `isolation`, by
  /// default the actor of the code that registers, and as `delivery` says when that is `nil`. A
  /// `@MainActor` method selects the `@MainActor` twin of this form,
  /// ``observe(_:object:target:action:delivery:backlog:fileID:line:)-meux``, which does not
  /// compile off the main actor. Another global actor's method loses its isolation without a
  /// diagnostic: register it from its actor's code. The target is kept alive for the call only.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - target: The object whose method is called, `Sendable`. It is not retained.
  ///   - action: The unbound method to call, taking the notification.
  ///   - delivery: Where and when the method runs. Defaults to `.synchronous`.
  ///   - backlog: The most calls this observation may have waiting when its handler runs later,
  ///     and which go when there are more (reported to ``onDrop(_:)``); unbounded by default.
  ///   - isolation: The actor the method runs on: the caller's (`#isolation`) unless you pass
  ///     another; `nil` from nonisolated code, where `delivery` decides.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name?, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> (Notification) -> Void, delivery: Delivery = .synchronous,
    backlog: Backlog = .unbounded, isolation: (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    observe(
      name, object: object, observer: target, delivery: delivery, backlog: backlog,
      isolation: isolation,
      site: RegistrationSite(.observer(Target.self), fileID: fileID, line: line)
    ) { target, note in
      action(target)(note)
    }
  }

  /// Observes notifications by calling a method of `target` that takes no argument.
  ///
  /// The target-action form for a method that does not need the notification:
  ///
  /// ```swift
  /// final class Badge: Sendable {
  ///   func start(center: NotificationCenter) -> Subscription {
  ///     center.observe(.init("InboxDidChange"), target: self, action: Badge.reload)
  ///   }
  ///
  ///   func reload() {}
  /// }
  /// ```
  ///
  /// The target is held weakly: once it is deallocated the method is never called again. The
  /// observation lasts until the returned token is cancelled or released.
  ///
  /// ### Threading
  /// As the form whose method takes the notification,
  /// ``observe(_:object:target:action:delivery:backlog:isolation:fileID:line:)-5q37g``, says; its
  /// `@MainActor` twin is ``observe(_:object:target:action:delivery:backlog:fileID:line:)-9owcb``.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - target: The object whose method is called, `Sendable`. It is not retained.
  ///   - action: The unbound method to call, taking no argument.
  ///   - delivery: Where and when the method runs. Defaults to `.synchronous`.
  ///   - backlog: The most calls this observation may have waiting when its handler runs later,
  ///     and which go when there are more (reported to ``onDrop(_:)``); unbounded by default.
  ///   - isolation: The actor the method runs on: the caller's (`#isolation`) unless you pass
  ///     another; `nil` from nonisolated code, where `delivery` decides.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name?, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> () -> Void, delivery: Delivery = .synchronous,
    backlog: Backlog = .unbounded, isolation: (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    observe(
      name, object: object, observer: target, delivery: delivery, backlog: backlog,
      isolation: isolation,
      site: RegistrationSite(.observer(Target.self), fileID: fileID, line: line)
    ) { target, _ in
      action(target)()
    }
  }

  /// The target-action form for a name that is not optional; the same as
  /// ``observe(_:object:target:action:delivery:backlog:isolation:fileID:line:)-5q37g``.
  ///
  /// It keeps a name written `.init("…")` from changing which form Swift picks. Looked up in
  /// `Notification.Name?`, the initializer is found through the optional, which the type checker
  /// counts against the form it tried first; a `@MainActor` method registered off the main actor
  /// could then get the nonisolated form instead of its `@MainActor` twin, and compile. Here the
  /// name needs no unwrapping, so the method's isolation decides, as for every other spelling.
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> (Notification) -> Void, delivery: Delivery = .synchronous,
    backlog: Backlog = .unbounded, isolation: (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    observe(
      Optional(name), object: object, target: target, action: action, delivery: delivery,
      backlog: backlog, isolation: isolation, fileID: fileID, line: line)
  }

  /// The target-action form for a name that is not optional and a method that takes no
  /// argument; the same as
  /// ``observe(_:object:target:action:delivery:backlog:isolation:fileID:line:)-7sbrq``, and here
  /// for the reason the form above is.
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> () -> Void, delivery: Delivery = .synchronous,
    backlog: Backlog = .unbounded, isolation: (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    observe(
      Optional(name), object: object, target: target, action: action, delivery: delivery,
      backlog: backlog, isolation: isolation, fileID: fileID, line: line)
  }

  /// Registers a handler that receives `observer`, held weakly, with each matching notification;
  /// the observation is token-held.
  func observe<Observer: AnyObject>(
    _ name: Notification.Name?, object: AnyObject?, observer: Observer, delivery: Delivery,
    backlog: Backlog, isolation: (any Actor)?, site: RegistrationSite,
    _ handler: @escaping (Observer, Notification) -> Void
  ) -> Subscription {
    let lease = ChannelRegistry.shared.lease(center: self, name: name, sender: object)
    let entry = ObserverEntry<PostedNotification>(
      observer: observer, keyed: false, delivery: delivery, isolation: isolation
    ) { observer, posted in
      handler(observer, posted.notification)
    }
    entry.site = site
    bound(entry, by: backlog, name: name)
    return lease.subscribe(entry)
  }
}
