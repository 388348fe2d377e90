public import EventCore

extension Event {
  /// Creates a replaying event that starts with `initial` retained, like Combine's
  /// `CurrentValueSubject(value)` or RxSwift's `BehaviorSubject(value:)`.
  ///
  /// ```swift
  /// let theme = Event<String>(replay: .latest, initial: "light")
  /// theme.subscribe { print("theme:", $0) }  // prints "theme: light" at once
  ///   .store(in: &subscriptions)
  /// ```
  ///
  /// `initial` is retained as if it had been posted before any registration: nobody receives
  /// it at init, every registration then receives it as its replay (with ``Replay/last(_:)``,
  /// until later posts push it out), and ``latest`` and ``retained`` read it. With
  /// ``Replay/untilObserved`` it is held for the first registration, like any post made while
  /// nobody observes.
  ///
  /// - Parameters:
  ///   - delivery: Where handlers written in nonisolated code run: `.synchronous` (the default)
  ///     on the posting thread, `.queue(q)` on `q`, `.mainActor` on the main actor.
  ///   - replay: What the event keeps: ``Replay/latest``, ``Replay/last(_:)`` or
  ///     ``Replay/untilObserved``. ``Replay/none``, which keeps nothing, stops the program with a
  ///     message saying so.
  ///   - initial: The payload the event starts with.
  ///   - reentrancy: What a post made by a synchronous handler of this event, during a post on
  ///     the same thread, does: ``Reentrancy/immediate`` (the default) or
  ///     ``Reentrancy/queued``.
  ///   - backlog: How many calls each registration that runs later may have waiting (see
  ///     ``init(delivery:replay:reentrancy:backlog:)``). Replayed payloads, `initial` among
  ///     them, never count against it.
  public convenience init(
    delivery: Delivery = .synchronous, replay: Replay, initial: Payload,
    reentrancy: Reentrancy = .immediate, backlog: Backlog = .unbounded
  ) {
    self.init(delivery: delivery, replay: replay, reentrancy: reentrancy, backlog: backlog)
    guard list.seedRetained(initial) else {
      // `fatalError` rather than `precondition`, whose message optimized builds drop.
      fatalError(
        "Event(replay: .none, initial:): an event that retains nothing cannot start with a "
          + "value; use .latest, .last(n) or .untilObserved")
    }
  }

  /// What the event keeps for registrations made later, oldest first.
  ///
  /// With ``Replay/latest`` or ``Replay/last(_:)``, the newest posts (until ``clearReplay()``);
  /// with ``Replay/untilObserved``, the posts held for the next registration, empty once they
  /// have been handed over; with ``Replay/none``, always empty. The last element is ``latest``.
  /// Thread-safe; a copy, so later posts do not change an array already read.
  ///
  /// - Complexity: O(*n*) in the payloads retained.
  public var retained: [Payload] {
    list.retained
  }
}
