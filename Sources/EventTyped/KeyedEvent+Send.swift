import EventCore

extension KeyedEvent {
  /// Posts `payload` to `key`, then waits until every call the post queued has run, been
  /// dropped, or ended with its registration; as ``Event/send(_:isolation:)-(Payload,_)`` for
  /// one event.
  ///
  /// ```swift
  /// for chunk in upload.chunks {
  ///   await progress.send(chunk.count, to: upload.id)
  /// }
  /// ```
  ///
  /// The wait covers the key's registrations and those of ``all``; a key with none costs the
  /// lookup alone and returns at once.
  ///
  /// - Parameters:
  ///   - payload: The value handed to every handler of `key`.
  ///   - key: The key whose registrations receive it.
  ///   - isolation: The caller's actor, where the synchronous handlers run; leave the default.
  /// - Returns: What ``post(_:to:)`` returns.
  @discardableResult
  public func send(
    _ payload: Payload, to key: Key, isolation: isolated (any Actor)? = #isolation
  ) async -> Int {
    let reached = post(payload, to: key)
    await event(of: key)?.afterQueuedCalls()
    if all.isObserved { await all.afterQueuedCalls() }
    return reached
  }
}

extension KeyedEvent.Channel {
  /// Posts `payload` to this key, then waits for the calls it queued; the same as
  /// ``KeyedEvent/send(_:to:isolation:)`` with this channel's key.
  ///
  /// - Parameters:
  ///   - payload: The value handed to every handler of this key.
  ///   - isolation: The caller's actor, where the synchronous handlers run; leave the default.
  /// - Returns: The number of this key's registrations the post reached.
  @discardableResult
  public func send(_ payload: Payload, isolation: isolated (any Actor)? = #isolation) async -> Int {
    await keyed.send(payload, to: key, isolation: isolation)
  }

  /// Posts the payload's elements, given one by one, to this key, then waits for the calls it
  /// queued.
  ///
  /// - Parameters:
  ///   - element: The payload's elements, in order.
  ///   - isolation: The caller's actor, where the synchronous handlers run; leave the default.
  /// - Returns: The number of this key's registrations the post reached.
  @discardableResult
  public func send<each Element>(
    _ element: repeat each Element, isolation: isolated (any Actor)? = #isolation
  ) async -> Int where Payload == (repeat each Element) {
    await keyed.send((repeat each element), to: key, isolation: isolation)
  }
}
