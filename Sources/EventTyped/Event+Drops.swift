public import EventCore

extension Event {
  /// What this event's bounded backlogs dropped, one ``/EventCore/Drop`` per report, with where
  /// each registration was written.
  ///
  /// ```swift
  /// let positions = Event<Position>(delivery: .mainActor, backlog: .dropOldest(1))
  /// positions.drops.subscribe { drop in metrics.count("positions.dropped", drop.count) }
  ///   .store(in: &subscriptions)
  /// ```
  ///
  /// Reports are coalesced per registration: the first drop after its last call is posted at
  /// once (count 1), on the posting thread, before `post` returns; later drops add up into one
  /// report, posted before that registration's next call (on its queue or actor) or when it
  /// ends. So a burst costs at most two reports, and every dropped payload is counted once.
  /// Payloads a cancel discards are not drops.
  ///
  /// `drops` is itself a `.synchronous`, ``/EventCore/Backlog/unbounded`` event: it never inherits
  /// this event's backlog, and its handlers' own drops and errors go to `drops.drops` and
  /// `drops.errors`, never back here. While nothing observes it, the first drop of each
  /// registration is printed to standard error instead, with its site, once.
  ///
  /// Created when first read; an event that never drops pays nothing on its posts.
  /// Thread-safe.
  public var drops: Event<Drop> {
    // Every event has a flow: its own, or its keyed event's for a key's event.
    list.flow.unsafelyUnwrapped.dropEvent
  }

  /// The limit on what each registration that runs later may have waiting.
  public var backlog: Backlog {
    list.flow?.backlog ?? .unbounded
  }

  /// Sends the standard-error lines of this event's drops and backlog warnings to `write`
  /// instead, so that tests can read them.
  package func writeFlowWarnings(to write: @escaping @Sendable (String) -> Void) {
    list.flow?.writeWarnings(to: write)
  }
}

extension FlowControl {
  /// The `drops` of the channel this flow belongs to, made by the first read, which has the
  /// reports posted there from then on.
  var dropEvent: Event<Drop> {
    if let drops = drops.load(as: Event<Drop>.self) { return drops }
    let made = Event<Drop>()
    let event = drops.storeIfNil(made)
    if event === made {
      deliverDrops { drop in
        guard event.observerCount > 0 else { return false }
        event.post(drop)
        return true
      }
    }
    return event
  }
}
