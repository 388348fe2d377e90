import EventRAII
public import EventTyped
public import Foundation
public import Testing

/// Runs `work`, waits for the event's deliveries, and expects that `event` posted nothing
/// meanwhile; records an issue at the caller listing what it posted.
///
/// ```swift
/// await expectNoPost(on: Cart.didChange) {
///   cart.add("tea", when: .outOfStock)  // refused: nothing changes
/// }
/// ```
///
/// It records from the call on (not the event's replay), then runs `work`, then waits for
/// the event's `flush()`, so that posts made by queued or actor handlers of posts inside
/// `work` count too.
///
/// - Parameters:
///   - event: The event that must not post.
///   - comment: Added to the issue.
///   - sourceLocation: Where the issue is recorded: the caller, by default.
///   - work: The code that must not post. It runs on the caller's actor, so it may touch what
///     that actor isolates (a `@MainActor` screen).
///   - isolation: The caller's actor, where `work` runs; leave the default.
/// - Throws: What `work` throws.
public func expectNoPost<Payload>(
  on event: Event<Payload>, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  after work: nonisolated(nonsending) () async throws -> Void,
  isolation: isolated (any Actor)? = #isolation
) async rethrows {
  try await expectNoPost(
    from: event, comment, sourceLocation: sourceLocation, after: work, isolation: isolation)
}

/// Runs `work`, waits for the deliveries of `channel`'s key, and expects that nothing was
/// posted to that key meanwhile; records an issue at the caller listing what was.
///
/// ```swift
/// await expectNoPost(on: replies[id]) {
///   server.cancel(id)  // a cancelled request gets no reply
/// }
/// ```
///
/// As ``expectNoPost(on:_:sourceLocation:after:isolation:)-(Event<Payload>,_,_,_,_)`` for one
/// key: posts to other keys of the keyed event do not count, and recording creates no key. It
/// waits for the channel's `flush()` after `work`.
///
/// - Parameters:
///   - channel: The key that must not be posted to.
///   - comment: Added to the issue.
///   - sourceLocation: Where the issue is recorded: the caller, by default.
///   - work: The code that must not post to the key. It runs on the caller's actor, so it may
///     touch what that actor isolates (a `@MainActor` screen).
///   - isolation: The caller's actor, where `work` runs; leave the default.
/// - Throws: What `work` throws.
public func expectNoPost<Key, Payload>(
  on channel: KeyedEvent<Key, Payload>.Channel, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  after work: nonisolated(nonsending) () async throws -> Void,
  isolation: isolated (any Actor)? = #isolation
) async rethrows {
  try await expectNoPost(
    from: channel, comment, sourceLocation: sourceLocation, after: work, isolation: isolation)
}

/// What both forms of `expectNoPost(on:)` do: records `source` from now on, runs `work`, waits
/// for `source`'s flush, and records an issue at `sourceLocation` listing what was posted.
func expectNoPost(
  from source: some RecordedSource, _ comment: Comment?, sourceLocation: SourceLocation,
  after work: nonisolated(nonsending) () async throws -> Void,
  isolation: isolated (any Actor)?
) async rethrows {
  let recorder = EventRecorder(recording: source)
  try await work()
  await source.flush()
  recorder.cancel()
  let posted = recorder.values
  guard !posted.isEmpty else { return }
  recordIssue("expected no post, \(source) posted \(posted)", comment, at: sourceLocation)
}

/// Runs `work`, waits for the center's deliveries, and expects that `center`
/// delivered no notification named `name` meanwhile; records an issue at the caller listing
/// those it delivered.
///
/// ```swift
/// await expectNoNotification(.themeDidChange, center: center) {
///   theme.select(theme.current)  // the same theme again: no notification
/// }
/// ```
///
/// It records from the call on, then runs `work`, then waits for the center's `flush(nil)`
/// (every name), so that notifications posted by queued or actor observers of notifications
/// posted inside `work` count too.
///
/// - Parameters:
///   - name: The notification that must not be posted.
///   - center: The center to watch.
///   - object: Count only those posted by this object; `nil`, the default, counts any sender.
///   - comment: Added to the issue.
///   - sourceLocation: Where the issue is recorded: the caller, by default.
///   - work: The code that must not post it. It runs on the caller's actor, so it may touch
///     what that actor isolates.
///   - isolation: The caller's actor, where `work` runs; leave the default.
/// - Throws: What `work` throws.
public func expectNoNotification(
  _ name: Notification.Name, center: NotificationCenter, object: AnyObject? = nil,
  _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
  after work: nonisolated(nonsending) () async throws -> Void,
  isolation: isolated (any Actor)? = #isolation
) async rethrows {
  let recorder = NotificationRecorder(center, name: name, object: object)
  try await work()
  await center.flush(nil)
  recorder.cancel()
  let posted = recorder.notifications
  guard !posted.isEmpty else { return }
  recordIssue(
    "expected no \(name.rawValue) notification, \(posted.count) were posted", comment,
    at: sourceLocation)
}
