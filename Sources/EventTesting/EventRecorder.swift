import EventCore
public import EventTyped
public import Testing

/// Records every payload an event, or one key of a keyed event, posts from now on, for a test
/// to read or wait for.
///
/// ```swift
/// @Test func finishingADownloadPostsIt() async throws {
///   let recorder = EventRecorder(Downloads.didFinish)  // records from now on
///   Downloads.didFinish.post("a", 1)
///   #expect(recorder.values.map(\.0) == ["a"])
///   downloads.start("b")
///   let next = try await recorder.next(timeout: .seconds(1))  // the next unread payload
///   #expect(next.0 == "b")
/// }
/// ```
///
/// The recorder records each post synchronously, on the posting thread, whatever the event's
/// delivery, so ``values`` holds a post as soon as `post` returns. It records posts made after
/// it was created, not what the event retains for its replay (which it leaves in place).
///
/// It is passive, so recording does not change the code under test: it is left out of what
/// `post` returns, `isObserved`, `onObservedChange`, `observerCount` and `String(reflecting:)`,
/// and an ``/EventTyped/Replay/untilObserved`` event still holds what it posts with nobody
/// else registered (the recorder records it too) for the app's first real registration.
/// `unregisterAll()` does not end it. It keeps the event alive, and stops recording when it is
/// released or ``cancel()``ed.
///
/// A recorder of a channel, ``init(_:)-(KeyedEvent<Key,Payload>.Channel)``, records the posts
/// to that key alone, and is passive in the same way on the keyed event: it creates no key (so
/// ``/EventTyped/KeyedEvent/keyCount`` does not count it), and it is left out of what
/// `post(_:to:)` returns and the channel's counts. It keeps recording while the key is removed
/// and made again:
///
/// ```swift
/// let recorder = EventRecorder(replies[id])
/// server.handle(request)  // posts replies.post(reply, to: id)
/// #expect(try await recorder.next(timeout: .seconds(1)).id == id)
/// ```
///
/// Thread-safe.
public final class EventRecorder<Payload: Sendable>: Sendable {
  /// The event recorded, kept alive by the recorder; `nil` for a recorder of a channel, which
  /// keeps the channel (and with it its keyed event) alive instead.
  public var event: Event<Payload>? {
    source as? Event<Payload>
  }

  /// The event or channel recorded, kept alive.
  private let source: any RecordedSource<Payload>
  private let recording = Recording<Payload>()
  private let registration: Subscription

  /// Starts recording `event`'s posts.
  ///
  /// - Parameter event: The event to record; the recorder keeps it alive.
  public convenience init(_ event: Event<Payload>) {
    self.init(recording: event)
  }

  /// Starts recording the posts to `channel`'s key, without making the key.
  ///
  /// ```swift
  /// let recorder = EventRecorder(Documents.changed[id])
  /// ```
  ///
  /// - Parameter channel: The key to record; the recorder keeps the channel, and so its keyed
  ///   event, alive.
  public convenience init<Key>(_ channel: KeyedEvent<Key, Payload>.Channel) {
    self.init(recording: channel)
  }

  /// Starts recording `source`'s posts: what each public initializer does.
  init(recording source: some RecordedSource<Payload>) {
    self.source = source
    let recording = recording
    registration = source.tap { recording.record($0) }
  }

  /// Every payload recorded, in post order.
  public var values: [Payload] {
    recording.values
  }

  /// How many payloads were recorded.
  public var count: Int {
    values.count
  }

  /// The next payload not yet returned by `next`, waiting for at most `timeout` for one to be
  /// posted.
  ///
  /// The first call returns the first payload recorded, the second the second, and so on,
  /// whether they were posted before the call or during it; reading ``values`` does not
  /// advance it. Concurrent calls are served in the order they started waiting.
  ///
  /// - Parameter timeout: How long to wait for a post; 5 seconds unless given.
  /// - Returns: The next unread payload.
  /// - Throws: ``/EventCore/EventTimeout`` when no payload is posted in time,
  ///   `CancellationError` when the task is cancelled first.
  public func next(timeout: Duration = .seconds(5)) async throws -> Payload {
    try await recording.next(timeout: timeout)
  }

  /// Stops recording; what was recorded stays readable.
  public func cancel() {
    registration.cancel()
  }
}

extension EventRecorder where Payload: Equatable {
  /// Waits until `expected.count` payloads are recorded, for at most `timeout`, then expects
  /// them to be exactly `expected`, in order; records an issue at the caller otherwise.
  ///
  /// ```swift
  /// let recorder = EventRecorder(Cart.didChange)
  /// cart.add("tea")
  /// cart.add("milk")
  /// await recorder.expect(["tea", "milk"])
  /// ```
  ///
  /// Posts that arrive while it waits count, so it suits queued and main-actor deliveries
  /// that repost. Payloads beyond `expected.count` recorded by the time it looks fail it too.
  ///
  /// - Parameters:
  ///   - expected: The payloads, in post order.
  ///   - timeout: How long to wait for them; 5 seconds unless given.
  ///   - comment: Added to the issue.
  ///   - sourceLocation: Where the issue is recorded: the caller, by default.
  public func expect(
    _ expected: [Payload], within timeout: Duration = .seconds(5), _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let recorded = await Polling.value(within: timeout) {
      let values = self.values
      return values.count >= expected.count ? values : nil
    }
    let values = recorded ?? values
    guard values != expected else { return }
    recordIssue("expected \(expected), recorded \(values)", comment, at: sourceLocation)
  }
}
