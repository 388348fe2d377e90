public import EventCore

/// What an ``Event`` keeps of its posts for registrations made later.
///
/// A late subscriber usually wants the current state, not just what happens next: the screen
/// created after the user logged in still needs the login. Give the event a replay, and every
/// new registration first receives what it retains, oldest first, through its own delivery,
/// then every later post:
///
/// ```swift
/// let session = Event<String>(replay: .latest)
/// session.post("ada")
/// session.subscribe { user in print("signed in as", user) }  // prints at once
///   .store(in: &subscriptions)
/// ```
///
/// - ``none``: nothing is retained (the default).
/// - ``latest``: the newest payload, as `last(1)`: an event that behaves like a current value.
/// - ``last(_:)``: the newest `count` payloads, the oldest dropped first: recent history.
/// - ``untilObserved``: while the event has no live registration, posts are held (unbounded, in
///   order) and the first registration receives all of them; then nothing is held until the
///   event again has no live registration. For events that must not be lost because nobody
///   listened yet: what a registration drops before its handler starts on it is held again.
///
/// Every new registration (every `subscribe` and `register` form, each iteration of
/// ``Event/values``) receives each payload exactly once, as replay or live, in post order, with
/// no gap and no duplicate, even while other threads post during the registration: each post
/// falls wholly before the registration (replayed) or after it (live). With `.synchronous`
/// delivery the replay has run when the registration call returns. A live post that reaches the
/// registration while its replay runs on another thread is held behind the replay, and the
/// registering thread delivers it right after: such a post returns before that handler runs,
/// the one exception to "before `post` returns" (waiting for another thread's handler could
/// hang).
public struct Replay: Sendable, Hashable {
  @usableFromInline let policy: RetentionPolicy

  private init(_ policy: RetentionPolicy) {
    self.policy = policy
  }

  /// Nothing is retained; a registration receives only posts made after it. The default.
  public static let none = Replay(.none)

  /// The newest payload is retained, as `last(1)`.
  public static let latest = Replay(.last(1))

  /// The newest `count` payloads are retained, the oldest dropped first.
  ///
  /// - Parameter count: How many payloads to keep; at least 1. A smaller count stops the
  ///   program with a message naming it: an event that retains nothing is ``none``.
  /// - Returns: A replay of the last `count` payloads.
  /// - Complexity: Retaining costs O(1) per post, and no allocation once `count` are kept.
  public static func last(_ count: Int) -> Replay {
    guard count >= 1 else {
      // `fatalError` rather than `precondition`, whose message optimized builds drop.
      fatalError(
        "Replay.last(\(count)): the count must be at least 1; use Replay.none to retain nothing")
    }
    return Replay(.last(count))
  }

  /// Posts made while the event has no live registration are held, in order, and handed to the
  /// next registration; posts made while one exists are delivered, not held.
  ///
  /// A ``Event/subscribeOnce(priority:_:fileID:line:)`` that is the first registration takes only
  /// the oldest held payload; the rest stay held for the next registration.
  ///
  /// A held payload counts as handed over only when a handler starts on it. With a `.queue` or
  /// `.mainActor` delivery the replay runs later; the payloads a registration drops before
  /// then (it is cancelled, unregistered or replaced, or its observer dies) go back to the
  /// front of the hold, ahead of the posts held since, for the next registration. An async
  /// handler starts on a payload when its call starts, and a ``Event/values`` stream when its
  /// consumer reads it (or its buffering policy drops it): what they still buffer when they end
  /// goes back the same way. A ``Event/next(where:timeout:after:isolation:)-3fw03`` takes held
  /// payloads one at a time until one matches, and leaves its registration inside the post that
  /// matches, so posts made after it are held again.
  ///
  /// A test's `EventRecorder` is no registration here: it records what is held without taking
  /// it.
  public static let untilObserved = Replay(.untilObserved)
}
