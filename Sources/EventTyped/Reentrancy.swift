/// What a post made by a synchronous handler of an ``Event``, on the posting thread, while that
/// thread is delivering a post of the same event, does.
///
/// With ``immediate`` (the default) the nested post is delivered at once, depth-first: the
/// observers after the posting handler see the nested payload before the outer one. With
/// ``queued`` it waits until the outer post has reached every observer, then is delivered,
/// before the outer `post` returns: breadth-first, so every observer sees the posts in one
/// order, the order they were made.
///
/// ```swift
/// let balance = Event<Int>(reentrancy: .queued)
/// balance.subscribe { value in
///   if value < 0 { balance.post(0) }  // delivered after every observer has seen `value`
/// }
/// .store(in: &subscriptions)
/// ```
///
/// Choose ``queued`` when a handler may post the same event and later observers must never see
/// a stale payload after a newer one (a state that a handler corrects, say). Only posts made on
/// the thread that is delivering are queued: a post made meanwhile on another thread, or by a
/// handler that runs later on a queue or an actor, is delivered as usual.
public struct Reentrancy: Sendable, Hashable {
  /// Whether nested posts wait for the post in progress on their thread.
  @usableFromInline let queues: Bool

  private init(queues: Bool) {
    self.queues = queues
  }

  /// A nested post is delivered at once, depth-first, inside the handler that made it. The
  /// default.
  public static let immediate = Reentrancy(queues: false)

  /// A nested post is delivered once the post in progress on its thread has reached every
  /// observer, breadth-first, before that outer post returns.
  ///
  /// Nested posts, and posts they make in turn, are delivered in the order they were made, each
  /// to the registrations live when its delivery starts. A post that nests nothing allocates
  /// nothing more than under ``immediate``; each nested payload is queued (an allocation only
  /// when nesting happens).
  public static let queued = Reentrancy(queues: true)
}
