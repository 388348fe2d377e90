import EventCore

// The throwing and async handler forms of a channel. What a throwing handler throws goes to
// `KeyedEvent.errors`, with the registration's site.
extension KeyedEvent.Channel {
  /// Registers a throwing closure on this key for as long as the token lives; what it throws
  /// goes to ``KeyedEvent/errors``.
  @_disfavoredOverload
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.subscribe(priority: priority, handler, fileID: fileID, line: line)
  }

  /// Registers `observer` on this key with a throwing closure; what it throws goes to
  /// ``KeyedEvent/errors``.
  @_disfavoredOverload
  @discardableResult
  public func register<Observer: AnyObject & Sendable>(
    _ observer: Observer, priority: Int = 0,
    @_inheritActorContext handler:
      @escaping @isolated(any) @Sendable (Observer, Payload) throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.register(
      observer, priority: priority, handler: handler, fileID: fileID, line: line)
  }

  /// Registers `actor` on this key with a throwing handler that runs on it; what it throws
  /// goes to ``KeyedEvent/errors``.
  @_disfavoredOverload
  @discardableResult
  public func register<A: Actor>(
    _ actor: A, priority: Int = 0,
    handler: @escaping @Sendable (isolated A, Payload) throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.register(actor, priority: priority, handler: handler, fileID: fileID, line: line)
  }

  /// Registers an async closure on this key for as long as the token lives, as ``Event``'s
  /// async `subscribe(priority:_:fileID:line:)` does: each payload in post order, one call at a
  /// time.
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) async -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.subscribe(priority: priority, handler, fileID: fileID, line: line)
  }

  /// Registers an async throwing closure on this key for as long as the token lives; what it
  /// throws goes to ``KeyedEvent/errors``.
  @_disfavoredOverload
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler:
      @escaping @isolated(any) @Sendable (Payload) async throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.subscribe(priority: priority, handler, fileID: fileID, line: line)
  }
}
