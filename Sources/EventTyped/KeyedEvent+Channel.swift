import EventCore

extension KeyedEvent {
  /// One key of a ``KeyedEvent``: every registration, posting and waiting form of ``Event``,
  /// scoped to that key.
  ///
  /// ```swift
  /// let document = Documents.changed[id]
  /// document.register(self) { screen, change in screen.apply(change) }
  /// document.post(.renamed("Notes"))  // the same as Documents.changed.post(.renamed("Notes"), to: id)
  /// ```
  ///
  /// Each form has the attributes of ``Event``'s form of the same name, so closure literals and
  /// method references select the same forms, run where they would on an ``Event`` with the
  /// keyed event's delivery, and the same mistakes get the same compiler errors; see ``Event``
  /// for each form's details. "One registration per observer" holds per key: an observer may
  /// have one registration on each key.
  ///
  /// A channel holds its keyed event strongly and its key, and looks the key up on every call:
  /// a registration makes the key, and a stored channel keeps working after the key was
  /// removed and made again. Forming one allocates nothing.
  public struct Channel: Sendable {
    /// The keyed event this channel belongs to.
    public let keyed: KeyedEvent
    /// The key this channel posts to and registers on.
    public let key: Key

    @inlinable init(keyed: KeyedEvent, key: Key) {
      self.keyed = keyed
      self.key = key
    }
  }
}

extension KeyedEvent.Channel {
  /// Registers an unbound method of `observer` on this key, as ``Event``'s
  /// `register(_:priority:function:isolation:fileID:line:)` does.
  ///
  /// - Returns: A token that ends the registration when cancelled; the registration lasts as
  ///   long as the observer.
  @inlinable @inline(__always)
  @discardableResult
  public func register<Observer: AnyObject & Sendable, each Element>(
    _ observer: Observer, priority: Int = 0,
    function: @escaping (Observer) -> (repeat each Element) -> Void,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.register(
      observer, priority: priority, function: function, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Registers a method of `observer`'s superclass or of a protocol it conforms to on this key,
  /// as ``Event``'s form of the same name does.
  @_disfavoredOverload
  @discardableResult
  public func register<Object: AnyObject & Sendable, Observer: AnyObject & Sendable, each Element>(
    _ observer: Object, priority: Int = 0,
    function: @escaping (Observer) -> (repeat each Element) -> Void,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.register(
      observer, priority: priority, function: function, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Registers `observer` with a closure on this key, as ``Event``'s
  /// `register(_:priority:handler:fileID:line:)` does: the closure receives the observer and
  /// the payload while the observer lives.
  @inlinable
  @discardableResult
  public func register<Observer: AnyObject & Sendable>(
    _ observer: Observer, priority: Int = 0,
    @_inheritActorContext handler: @escaping @isolated(any) @Sendable (Observer, Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.register(
      observer, priority: priority, handler: handler, fileID: fileID, line: line)
  }

  /// Registers a function on behalf of `type` on this key, as ``Event``'s
  /// `register(_:priority:function:fileID:line:)` for a type does: it lasts as long as the
  /// keyed event, until ``unregister(_:)-(T.Type)``.
  @discardableResult
  public func register<T, each Element>(
    _ type: T.Type, priority: Int = 0,
    @_inheritActorContext function:
      @escaping @isolated(any) @Sendable (repeat each Element)
      -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.register(type, priority: priority, function: function, fileID: fileID, line: line)
  }

  /// Registers a closure on this key for as long as the token lives, as ``Event``'s
  /// `subscribe(priority:_:fileID:line:)` does.
  ///
  /// - Returns: The token; the registration ends when it is cancelled or released.
  @inlinable
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.subscribe(priority: priority, handler, fileID: fileID, line: line)
  }

  /// Registers a closure on this key that runs for the next post only, as ``Event``'s
  /// `subscribeOnce(priority:_:fileID:line:)` does.
  @discardableResult
  public func subscribeOnce(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let event = keyed.beginRegistering(key)
    defer { keyed.endRegistering(key) }
    return event.subscribeOnce(priority: priority, handler, fileID: fileID, line: line)
  }

  /// Ends `observer`'s registration on this key, if it has one; its registrations on other keys
  /// stay (``KeyedEvent/unregister(_:)`` ends them all).
  public func unregister<Observer: AnyObject>(_ observer: Observer) {
    keyed.event(of: key)?.unregister(observer)
  }

  /// Ends the registration made on this key on behalf of `type`, if any.
  public func unregister<T>(_ type: T.Type) {
    keyed.event(of: key)?.unregister(type)
  }

  /// Ends every registration on this key, which removes the key; as ``Event/unregisterAll()``.
  public func unregisterAll() {
    keyed.endWaiters(of: key)
    keyed.event(of: key)?.unregisterAll()
  }

  /// Delivers `payload` to this key's registrations: the same as
  /// ``KeyedEvent/post(_:to:)`` with this channel's key.
  ///
  /// - Returns: The number of this key's registrations the post reached.
  @inlinable @discardableResult
  public func post(_ payload: Payload) -> Int {
    keyed.post(payload, to: key)
  }

  /// Delivers the payload's elements, given one by one, to this key's registrations.
  ///
  /// - Returns: The number of this key's registrations the post reached.
  @discardableResult
  public func post<each Element>(_ element: repeat each Element) -> Int
  where Payload == (repeat each Element) {
    keyed.post((repeat each element), to: key)
  }

  /// The number of live registrations on this key; 0 for a key that has none. Purges the dead
  /// ones it finds, as ``Event/observerCount`` does.
  public var observerCount: Int {
    let (event, waiting) = keyed.registrations(of: key)
    return (event?.observerCount ?? 0) + waiting
  }

  /// Whether this key has a live registration, as far as the keyed event knows; as
  /// ``Event/isObserved``.
  public var isObserved: Bool {
    let (event, waiting) = keyed.registrations(of: key)
    return waiting > 0 || event?.isObserved == true
  }

  /// Calls `handler` with `true` when this key gains its first live registration and `false`
  /// when it loses its last, as ``Event/onObservedChange(_:)`` does for an event.
  ///
  /// Installing it creates no key, and it keeps working while the key is removed and made
  /// again.
  ///
  /// - Returns: The token that ends the handler: once `cancel()` returns, no call of it starts.
  public func onObservedChange(_ handler: @escaping @Sendable (Bool) -> Void) -> Subscription {
    let inner = keyed.addObservedChange(of: key, handler)
    let keyed = keyed
    let key = key
    return Subscription {
      inner.cancel()
      keyed.dropObservedChangesIfUnused(key)
    }
  }
}

extension KeyedEvent.Channel: CustomDebugStringConvertible {
  /// The channel's key and its number of registrations.
  public var debugDescription: String {
    "KeyedEvent<\(Key.self), \(Payload.self)>.Channel(\(String(reflecting: key)), "
      + "\(keyed.registeredCount(of: key)) registrations)"
  }
}
