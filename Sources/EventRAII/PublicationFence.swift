import Synchronization

/// A release/acquire pair that restates, for ThreadSanitizer, an ordering the center already
/// guarantees.
///
/// A channel is built on one thread and handed to the center, which a post on another thread
/// reads it back from. The center orders the two through its own lock, but on Linux that lock
/// is a `Synchronization.Mutex`, whose contended hand-off happens in the kernel where
/// ThreadSanitizer cannot see it, so it reports the channel's initialisation as racing with the
/// post. Releasing here after the channel is built and acquiring at the top of each delivery
/// gives it an edge it can see. The cost is one uncontended atomic load per post.
final class PublicationFence: Sendable {
  static let shared = PublicationFence()

  private let generation = Atomic<Int>(0)

  /// Publishes everything written so far, before a registration is handed to the center.
  func release() {
    generation.add(1, ordering: .releasing)
  }

  /// Orders what follows after every registration published so far.
  func acquire() {
    _ = generation.load(ordering: .acquiring)
  }
}
