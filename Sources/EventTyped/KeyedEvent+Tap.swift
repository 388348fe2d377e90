import EventCore

extension KeyedEvent {
  /// Registers `handler` as a passive observer of `key`, for a test's recorder: it runs on the
  /// posting thread for every post to `key` from now on, before the key's registrations, as
  /// ``Event``'s `tap` does for an event, and nothing else sees it.
  ///
  /// It creates no key and lives outside the key's list, so it does not keep a key, and it is
  /// left out of ``keyCount``, what ``post(_:to:)`` returns, and the channel's
  /// ``Channel/isObserved``, ``Channel/onObservedChange(_:)`` and ``Channel/observerCount``.
  /// It keeps recording while the key is removed and made again, and ends with its token.
  ///
  /// The passive registrations of every key share one list, each filtering by its key: a post
  /// to any key costs one atomic load while there is none, and one key comparison per passive
  /// registration while there are some (a test has a few).
  ///
  /// - Parameters:
  ///   - key: The key whose posts `handler` receives.
  ///   - handler: Called with each payload posted to `key`, on the posting thread; it must not
  ///     block.
  /// - Returns: A token that ends the registration when cancelled or released.
  package func tap(_ key: Key, _ handler: @escaping @Sendable (Payload) -> Void) -> Subscription {
    let entry = ObserverEntry<(Key, Payload)>(delivery: .synchronous) { posted in
      if posted.0 == key { handler(posted.1) }
    }
    let taps =
      taps.load(as: ObserverList<(Key, Payload)>.self)
      ?? taps.storeIfNil(ObserverList<(Key, Payload)>())
    return taps.subscribe(entry, endsWithToken: true)
  }
}

extension KeyedEvent.Channel {
  /// Registers `handler` as a passive observer of this key, for a test's recorder; see
  /// ``KeyedEvent/tap(_:_:)``: it creates no key and no count sees it.
  ///
  /// - Parameter handler: Called with each payload posted to this key, on the posting thread.
  /// - Returns: A token that ends the registration when cancelled or released.
  package func tap(_ handler: @escaping @Sendable (Payload) -> Void) -> Subscription {
    keyed.tap(key, handler)
  }
}
