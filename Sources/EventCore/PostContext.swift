/// What one post has decided for every entry it reaches, carried from entry to entry in
/// call order (priority, then registration): a post is one order (guarantee 13).
///
/// Made by whatever starts a post (``ObserverList/post(_:)``, or a caller that merges several
/// lists into one post) and passed to each ``ObserverEntry/deliver(_:_:)`` in turn.
@usableFromInline package struct PostContext {
  @usableFromInline enum MainActorDeliveries {
    /// No main-actor entry reached yet: whether the post runs on the main actor is not read
    /// until one is.
    case undecided
    /// The post runs on the main actor, and no main-actor entry reached so far had a delivery
    /// still queued: main-actor handlers run inline.
    case inline
    /// The post runs off the main actor, or an earlier main-actor entry of it still had a
    /// delivery queued: every later main-actor handler of the post is queued behind it.
    case queued
  }

  @usableFromInline var mainActor = MainActorDeliveries.undecided

  /// The registrations whose bounded backlog refused the payload (`.dropNewest`): delivered
  /// to no one, though alive, so the post returns that many fewer.
  @usableFromInline package var refused = 0

  /// Whether the payloads are a registration's replay, which no backlog counts or drops.
  @usableFromInline package var isReplay = false

  /// A post that has reached no entry yet.
  @inlinable package init() {}
}
