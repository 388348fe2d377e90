extension Broadcaster {
  /// Registers `observer` with the ``shared`` broadcaster.
  ///
  /// The same as `Broadcaster.shared.register(protocolType, observer: observer)`; see
  /// ``register(_:observer:)-swift.method`` for the full behaviour.
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
  /// - Returns: A subscription whose `cancel()` ends this registration.
  /// - Precondition: `observer` is a class instance.
  @discardableResult
  public static func register<P>(_ protocolType: P.Type, observer: P) -> Subscription {
    shared.register(protocolType, observer: observer)
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
  /// broadcaster.
  ///
  /// The same as `Broadcaster.shared.notify(protocolType, body)`; see
  /// ``notify(_:_:)-swift.method``. Runs synchronously on the calling thread.
  ///
  /// ```swift
  /// Broadcaster.notify(Update.self) { $0.updateTitle(title: "new title") }
  /// ```
  ///
  /// - Parameters:
  ///   - protocolType: The protocol whose observers to call.
  ///   - body: Called with each observer, typed as `protocolType`.
  public static func notify<P>(_ protocolType: P.Type, _ body: (P) -> Void) {
    shared.notify(protocolType, body)
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
