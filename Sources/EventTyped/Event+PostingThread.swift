import EventCore

extension Event {
  /// Registers `handler` to run on the posting thread, whatever the event's delivery, for as
  /// long as the token lives: the registration of waits and recorders, which must see each post
  /// as it is made, not when a queue or an actor gets to it.
  ///
  /// - Parameters:
  ///   - replaying: Whether the registration first receives what the event retains (oldest
  ///     first, before this returns), as every public registration does; `false` leaves it
  ///     retained, or held, for the next registration.
  ///   - site: What the registration is and where it was written, for `String(reflecting:)`;
  ///     by default one the package makes itself.
  ///   - priority: Where the registration runs among the others: higher first.
  ///   - handler: Called with each payload on the posting thread; it must not block.
  /// - Returns: A token that ends the registration when cancelled or released.
  package func subscribeOnPostingThread(
    replaying: Bool, site: RegistrationSite = .madeByThePackage, priority: Int = 0,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    let entry = ObserverEntry<Payload>(delivery: .synchronous, handler: handler)
    entry.site = site
    entry.priority = priority
    return replaying
      ? list.subscribeReplaying(entry, endsWithToken: true)
      : list.subscribe(entry, endsWithToken: true)
  }

  /// Registers `handler` as a passive observer, for a test's recorder: it runs on the posting
  /// thread for every post from now on, held or not, and nothing else sees it. It is left out of
  /// what `post` returns, ``isObserved``, ``onObservedChange(_:)``, ``observerCount``, and the
  /// decision of ``Replay/untilObserved`` to hold a post, and it takes nothing retained or held.
  /// ``unregisterAll()`` leaves it; it ends with its token.
  ///
  /// - Parameter handler: Called with each payload on the posting thread; it must not block.
  /// - Returns: A token that ends the registration when cancelled or released.
  package func tap(_ handler: @escaping @Sendable (Payload) -> Void) -> Subscription {
    let entry = ObserverEntry<Payload>(delivery: .synchronous, handler: handler)
    return list.tap(entry)
  }
}
