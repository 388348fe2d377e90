import EventCore

extension Event {
  /// Registers an actor as a weak observer: `handler` runs on the actor, with the actor and the
  /// payload, one call at a time, in post order.
  ///
  /// Inside the actor, the handler reaches its state through the actor it is handed, so it
  /// captures nothing and keeps nothing alive:
  ///
  /// ```swift
  /// actor DownloadLog {
  ///   private var names: [String] = []
  ///
  ///   func start() {
  ///     Downloads.didFinish.register(self) { log, download in log.names.append(download.0) }
  ///   }
  /// }
  /// ```
  ///
  /// The actor is held weakly, as any observer, with one registration per event. The event's
  /// delivery does not apply: calls are queued on the actor, in post order, and `post` never
  /// waits for them.
  ///
  /// An actor's unbound method (`register(self, function: Self.record)`) does not convert to a
  /// function that Swift can call without the actor, so it does not compile: write this form.
  ///
  /// - Parameters:
  ///   - actor: The actor to run `handler` on, held weakly.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run on the actor for each post, with the actor and the payload.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled. The registration lasts as
  ///   long as the actor, so you may ignore the token; releasing it does not cancel.
  /// - Complexity: Amortised O(1).
  @discardableResult
  public func register<A: Actor>(
    _ actor: A, priority: Int = 0,
    handler: @escaping @Sendable (isolated A, Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let entry = ObserverEntry(
      observer: actor, keyed: true, delivery: delivery, isolation: actor
    ) { (actor: A, payload: Payload) in
      // The entry runs only on its isolation, `actor`: the check never fails.
      actor.assumeIsolated { actor in handler(actor, payload) }
    }
    return add(
      entry, .actor(A.self), priority: priority, fileID: fileID, line: line, endsWithToken: false)
  }

  /// An actor's unbound method does not compile as a handler: register the actor with a closure
  /// instead, ``register(_:priority:handler:fileID:line:)-1twd7``.
  @available(
    *, unavailable,
    message:
      "an actor's unbound method cannot be called off the actor; register the actor with a closure: register(self) { me, value in me.record(value) }"
  )
  @discardableResult
  public func register<A: Actor, Function>(
    _ actor: A, priority: Int = 0, function: Function,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    fatalError("unavailable")
  }
}
