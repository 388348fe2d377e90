public import EventTyped
public import Testing

extension DeliveryLog {
  /// Waits for every delivery of `event`'s posts made so far (its `flush()`), then expects that
  /// nothing was recorded: the one call for "no delivery reached it".
  ///
  /// ```swift
  /// var screen: Screen? = Screen(log: log)  // registers a handler that records
  /// screen = nil
  /// Session.didLogin.post(user)
  /// await log.expectNothing(after: Session.didLogin)  // a released observer gets nothing
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event whose queued, main-actor, actor and async deliveries to wait for.
  ///   - comment: Added to the issue.
  ///   - sourceLocation: Where the issue is recorded: the caller, by default.
  public func expectNothing<Payload>(
    after event: Event<Payload>, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await expectNothing(afterFlushOf: event, comment, sourceLocation: sourceLocation)
  }

  /// Waits for every delivery of the posts made so far to `channel`'s key (its `flush()`), then
  /// expects that nothing was recorded:
  /// ``expectNothing(after:_:sourceLocation:)-(Event<Payload>,_,_)`` for one key of a keyed event.
  ///
  /// ```swift
  /// var screen: DocumentScreen? = DocumentScreen(id, log: log)  // registers on Documents.changed[id]
  /// screen = nil
  /// Documents.changed.post(.renamed("Notes"), to: id)
  /// await log.expectNothing(after: Documents.changed[id])
  /// ```
  ///
  /// - Parameters:
  ///   - channel: The key whose queued, main-actor, actor and async deliveries to wait for.
  ///   - comment: Added to the issue.
  ///   - sourceLocation: Where the issue is recorded: the caller, by default.
  public func expectNothing<Key, Payload>(
    after channel: KeyedEvent<Key, Payload>.Channel, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await expectNothing(afterFlushOf: channel, comment, sourceLocation: sourceLocation)
  }

  /// What both forms of `expectNothing(after:)` do: flushes `source`, then expects nothing.
  func expectNothing(
    afterFlushOf source: some RecordedSource, _ comment: Comment?, sourceLocation: SourceLocation
  ) async {
    await source.flush()
    expectNothing(comment, sourceLocation: sourceLocation)
  }
}
