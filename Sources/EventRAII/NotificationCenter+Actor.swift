public import EventCore
public import Foundation

extension NotificationCenter {
  /// Observes notifications for as long as the actor `owner` lives: `handler` runs on the actor,
  /// with the actor and the notification, one call at a time, in post order.
  ///
  /// Inside the actor, the handler reaches its state through the actor it is handed, so it
  /// captures nothing and keeps nothing alive:
  ///
  /// ```swift
  /// actor Cache {
  ///   private var items: [String: Data] = [:]
  ///
  ///   func start(center: NotificationCenter) {
  ///     center.observe(.init("MemoryWarning"), owner: self) { cache, _ in
  ///       cache.items.removeAll()
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// The actor is held weakly: once it is deallocated the handler is never called again and the
  /// observation ends. Calls are queued on the actor, in post order, and `post` never waits for
  /// them. You may keep the returned token to end the observation earlier; several observations
  /// on one actor are independent.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - owner: The actor to run `handler` on, whose lifetime bounds the observation. It is not
  ///     retained.
  ///   - backlog: The most calls this observation may have waiting on the actor, and which go
  ///     when there are more (reported to ``onDrop(_:)``); unbounded by default.
  ///   - handler: The closure to run on the actor with it and each matching notification.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the observation when cancelled. You may ignore it; releasing
  ///   it does not end the observation.
  @discardableResult
  public func observe<A: Actor>(
    _ name: Notification.Name?, object: AnyObject? = nil, owner: A, backlog: Backlog = .unbounded,
    _ handler: @escaping @Sendable (isolated A, Notification) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    observe(
      name, object: object, observer: owner, delivery: .synchronous, backlog: backlog,
      isolation: owner,
      site: RegistrationSite(.actor(A.self), fileID: fileID, line: line)
    ) { owner, note in
      // Carried in as `PostedNotification` is carried to any other thread (see there).
      let posted = PostedNotification(notification: note)
      // The entry runs only on its isolation, `owner`: the check never fails.
      owner.assumeIsolated { owner in handler(owner, posted.notification) }
    }
    .bind(to: owner)
  }

  /// An actor's unbound method does not compile as an action: observe with the actor as owner
  /// instead, ``observe(_:object:owner:backlog:_:fileID:line:)``.
  @available(
    *, unavailable,
    message:
      "an actor's unbound method cannot be called off the actor; observe with the actor as owner: observe(name, owner: self) { me, note in me.refresh(note) }"
  )
  public func observe<A: Actor, Action>(
    _ name: Notification.Name?, object: AnyObject? = nil, target: A, action: Action,
    delivery: Delivery = .synchronous, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    fatalError("unavailable")
  }
}
