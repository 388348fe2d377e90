import EventCore

extension KeyedEvent.Channel {
  /// Registers `actor` on this key: `handler` runs on it, as ``Event``'s
  /// `register(_:priority:handler:fileID:line:)` for an actor does.
  ///
  /// - Returns: A token that ends the registration when cancelled; the registration lasts as
  ///   long as the actor.
  @discardableResult
  public func register<A: Actor>(
    _ actor: A, priority: Int = 0,
    handler: @escaping @Sendable (isolated A, Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.register(actor, priority: priority, handler: handler, fileID: fileID, line: line)
  }

  /// An actor's unbound method does not compile as a handler: register the actor with a closure
  /// instead, as on an `Event`.
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

  /// A handler closure that takes the payload alone, given to `register(_:handler:)`: rejected
  /// with a message saying the closure gets the observer and the payload, as on an `Event`.
  ///
  /// Disfavored and unavailable, so that it never wins over a valid call.
  @available(
    *, unavailable,
    message:
      "register(_:handler:) passes the observer and the payload: register(self) { me, value in ... }; for the payload alone, subscribe { value in ... }"
  )
  @_disfavoredOverload
  @discardableResult
  public func register<Observer: AnyObject>(
    _ observer: Observer, priority: Int = 0, handler: (Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    fatalError("unavailable")
  }

  /// Registers a `@MainActor` method of `observer` on this key: it runs on the main actor
  /// whichever thread posts, as ``Event``'s main-actor `register(_:priority:function:fileID:line:)`
  /// does, and does not compile off the main actor.
  @MainActor @inlinable @inline(__always)
  @discardableResult
  public func register<Observer: AnyObject & Sendable, each Element>(
    _ observer: Observer, priority: Int = 0,
    function: @escaping (Observer) -> @MainActor (repeat each Element) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    // Called only on the main actor (the entry's isolation): dropping the attribute loses
    // nothing, as in Event's form.
    let method = function as (Observer) -> (repeat each Element) -> Void
    return register(
      observer, priority: priority, function: method, isolation: MainActor.shared,
      fileID: fileID, line: line)
  }

  /// Registers a `@MainActor` method of `observer`'s superclass or of a protocol it conforms
  /// to on this key, on the main actor.
  @MainActor @_disfavoredOverload
  @discardableResult
  public func register<Object: AnyObject & Sendable, Observer: AnyObject & Sendable, each Element>(
    _ observer: Object, priority: Int = 0,
    function: @escaping (Observer) -> @MainActor (repeat each Element) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    let method = function as (Observer) -> (repeat each Element) -> Void
    return register(
      observer, priority: priority, function: method, isolation: MainActor.shared,
      fileID: fileID, line: line)
  }
}
