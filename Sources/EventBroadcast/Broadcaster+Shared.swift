extension Broadcaster {
  /// Registers `observer` with the ``shared`` broadcaster.
  ///
  /// The same as `Broadcaster.shared.register(protocolType, observer: observer)`; see
  /// ``register(_:observer:priority:isolation:fileID:line:)-swift.method`` for the full behaviour:
  /// called on the notifying thread, or on the actor of the registering code.
  ///
  /// ```swift
  /// Broadcaster.register(Update.self, observer: viewController)
  /// ```
  ///
  /// Thread-safe.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol, usually written `MyProtocol.self`, that names the channel.
  ///   - observer: A class instance conforming to `protocolType`. Held weakly.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - isolation: The actor the calls run on; by default that of the calling code.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A subscription whose `cancel()` ends this registration.
  /// - Precondition: `observer` is a class instance.
  @inlinable @discardableResult
  public static func register<P>(
    _ protocolType: P.Type, observer: P, priority: Int = 0,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    shared.register(
      protocolType, observer: observer, priority: priority, isolation: isolation,
      fileID: fileID, line: line)
  }

  /// Registers `observer` with the ``shared`` broadcaster, its calls running as `delivery`
  /// says.
  ///
  /// The same as `Broadcaster.shared.register(protocolType, observer: observer, delivery:
  /// delivery)`; see
  /// ``register(_:observer:delivery:priority:isolation:fileID:line:)-swift.method``. Isolation
  /// wins over delivery. Thread-safe.
  ///
  /// ```swift
  /// Broadcaster.register(Update.self, observer: cache, delivery: .queue(cacheQueue))
  /// ```
  ///
  /// - Parameters:
  ///   - protocolType: The protocol, usually written `MyProtocol.self`, that names the channel.
  ///   - observer: A class instance conforming to `protocolType`. Held weakly.
  ///   - delivery: Where and when the observer's calls run, unless `isolation` is an actor.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - isolation: The actor the calls run on; by default that of the calling code.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A subscription whose `cancel()` ends this registration.
  /// - Precondition: `observer` is a class instance.
  @inlinable @discardableResult
  public static func register<P>(
    _ protocolType: P.Type, observer: P, delivery: Delivery, priority: Int = 0,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    shared.register(
      protocolType, observer: observer, delivery: delivery, priority: priority,
      isolation: isolation, fileID: fileID, line: line)
  }

  /// Ends the registration of `observer` with the ``shared`` broadcaster for `protocolType`.
  ///
  /// The same as `Broadcaster.shared.unregister(protocolType, observer: observer)`; see
  /// ``unregister(_:observer:)-swift.method``. Safe to call from the observer's own `deinit`.
  /// Thread-safe.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol the observer was registered for.
  ///   - observer: The registered observer.
  @inlinable
  public static func unregister<P>(_ protocolType: P.Type, observer: P) {
    shared.unregister(protocolType, observer: observer)
  }

  /// Ends every registration for `protocolType` with the ``shared`` broadcaster.
  ///
  /// The same as `Broadcaster.shared.unregisterAll(protocolType)`; see
  /// ``unregisterAll(_:)-swift.method``. Thread-safe.
  ///
  /// - Parameter protocolType: The protocol whose observers to remove.
  public static func unregisterAll<P>(_ protocolType: P.Type) {
    shared.unregisterAll(protocolType)
  }

  /// Calls `body` with each observer of `protocolType` registered with the ``shared``
  /// broadcaster, where each registration says.
  ///
  /// The same as `Broadcaster.shared.notify(protocolType, body)`; see
  /// ``notify(_:_:isolation:)-swift.method``: an isolated body runs on its actor, a
  /// nonisolated one on the calling thread for synchronous nonisolated registrations and where
  /// the others say. Never waits for a queued call.
  ///
  /// ```swift
  /// Broadcaster.notify(Update.self) { $0.updateTitle(title: "new title") }
  /// ```
  ///
  /// - Parameters:
  ///   - protocolType: The protocol whose observers to call.
  ///   - body: Called with each observer, typed as `protocolType`.
  ///   - isolation: The actor the caller runs on; by default that of the calling code.
  public static func notify<P>(
    _ protocolType: P.Type,
    @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    isolation: (any Actor)? = #isolation
  ) {
    shared.notify(protocolType, body, isolation: isolation)
  }

  /// The number of live observers of `protocolType` registered with the ``shared`` broadcaster.
  ///
  /// The same as `Broadcaster.shared.observerCount(protocolType)`; see
  /// ``observerCount(_:)-swift.method``. Thread-safe.
  ///
  /// - Parameter protocolType: The protocol whose observers to count.
  /// - Returns: How many observers a notification started now would call.
  public static func observerCount<P>(_ protocolType: P.Type) -> Int {
    shared.observerCount(protocolType)
  }
}
