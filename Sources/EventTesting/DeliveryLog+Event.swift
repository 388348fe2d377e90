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
    await event.flush()
    expectNothing(comment, sourceLocation: sourceLocation)
  }
}
