/// Where and when a handler runs.
///
/// ```swift
/// let saved = Event<String>(delivery: .queue(DispatchQueue(label: "saves")))
/// NotificationCenter.default.observe(.NSCalendarDayChanged, delivery: .mainActor) { _ in }
/// ```
///
/// Whatever the delivery, a cancelled registration is never invoked: the check happens
/// immediately before the handler runs, so a delivery already queued when the subscription is
/// cancelled does not reach it.
///
/// Isolation wins over delivery: a handler written in code isolated to an actor (a `@MainActor`
/// screen registering itself, a closure written in an actor's method) always runs on that actor,
/// whatever delivery the event or the call names. To have the delivery decide, register from
/// nonisolated code: a `nonisolated` method, or `isolation: nil` where the form takes it.
public struct Delivery: Sendable {
  @usableFromInline package enum Kind: Sendable {
    case synchronous
    case queue(DispatchQueue)
    /// On the main actor. `isolated` when the handler was written in code isolated to the main
    /// actor: its observer and owners then belong to the main actor too, and the package loads
    /// them only there (guarantee 12; see `ObserverEntry.isAlive`).
    case mainActor(isolated: Bool)
    /// On an actor other than the main actor: a handler written in code isolated to it.
    ///
    /// Held weakly: a registration must never keep the actor of the code that made it alive
    /// (guarantee 11). An actor that registers a method of an object it owns, and keeps the
    /// token, would otherwise form a cycle through the list: list, entry, actor, token. Only
    /// actor instances can die (the main actor and global actors are shared for good), and a
    /// registration whose actor has died is dead, like one whose observer has.
    case actor(WeakActor)

    /// Whether handlers run on the main actor.
    @usableFromInline package var isMainActor: Bool {
      if case .mainActor = self { return true }
      return false
    }
  }

  /// A zeroing weak reference to an actor (`WeakReference` takes a class, and `any Actor` is
  /// not one). A weak load is atomic in the runtime, so sharing one across threads is sound.
  ///
  /// A class, so that `Kind` stays loadable: a weak reference stored inline would make every
  /// `Delivery` address-only, and each post's check of `kind` would copy it through the
  /// runtime, per entry.
  @usableFromInline package final class WeakActor: Sendable {
    @usableFromInline struct Reference: Sendable {
      // Not `(any Actor)?`: see `WeakReference._object`.
      // swift-format-ignore: UseShorthandTypeNames
      @usableFromInline weak var object: Optional<any Actor>

      @inlinable init(object: any Actor) {
        self.object = object
      }
    }

    @usableFromInline let reference: Reference
    /// The actor's type, for descriptions: read without loading the reference, whose strong
    /// load off the actor could be the last reference to it.
    @usableFromInline package let type: any Actor.Type

    /// The actor, or `nil` once it has been deallocated.
    @inlinable package var object: (any Actor)? { reference.object }

    @inlinable init(_ object: any Actor) {
      reference = Reference(object: object)
      type = Swift.type(of: object)
    }
  }

  @usableFromInline package let kind: Kind

  @inlinable init(_ kind: Kind) {
    self.kind = kind
  }

  // Computed and inlinable, not a `static let`: a default argument of every registration, which
  // would otherwise read a lazy global (a `swift_once` call) on each.
  /// Runs the handler on the posting thread, before `post` returns. The default.
  @inlinable public static var synchronous: Delivery { Delivery(.synchronous) }

  /// Runs the handler asynchronously on `queue`; `post` returns at once.
  ///
  /// Deliveries to one handler arrive in post order when `queue` is serial.
  ///
  /// - Parameter queue: The queue to run the handler on.
  /// - Returns: A delivery that enqueues each invocation on `queue`.
  public static func queue(_ queue: DispatchQueue) -> Delivery {
    Delivery(.queue(queue))
  }

  /// Runs the handler on the main actor: inline when the post is already on the main actor and
  /// nothing is still queued there for the post's main-actor handlers, otherwise as a
  /// `DispatchQueue.main.async` hop, in post order.
  ///
  /// On Linux the main actor runs on the main queue, which a program drains only from an
  /// `async` entry point, `dispatchMain()` or a run loop.
  public static let mainActor = Delivery(.mainActor(isolated: false))

  /// Where a handler runs, given the delivery asked for and the isolation the handler was
  /// written in: isolation wins over delivery. A handler isolated to an actor always runs on
  /// that actor, whatever `self` says; a nonisolated one (`isolation == nil`) runs as `self`
  /// says. The actor is held weakly (see `Kind.actor`).
  @inlinable
  package consuming func honouring(_ isolation: (any Actor)?) -> Delivery {
    guard let isolation else { return self }
    return isolation is MainActor
      ? Delivery(.mainActor(isolated: true)) : Delivery(.actor(WeakActor(isolation)))
  }
}
