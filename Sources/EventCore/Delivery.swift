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
public struct Delivery: Sendable {
  @usableFromInline package enum Kind: Sendable {
    case synchronous
    case queue(DispatchQueue)
    case mainActor
    /// On an actor other than the main actor: a handler written in code isolated to it.
    case actor(any Actor)
  }

  @usableFromInline package let kind: Kind

  @usableFromInline init(_ kind: Kind) {
    self.kind = kind
  }

  /// Runs the handler on the posting thread, before `post` returns. The default.
  public static let synchronous = Delivery(.synchronous)

  /// Runs the handler asynchronously on `queue`; `post` returns at once.
  ///
  /// Deliveries to one handler arrive in post order when `queue` is serial.
  ///
  /// - Parameter queue: The queue to run the handler on.
  /// - Returns: A delivery that enqueues each invocation on `queue`.
  public static func queue(_ queue: DispatchQueue) -> Delivery {
    Delivery(.queue(queue))
  }

  /// Runs the handler on the main actor: inline when the post is already on the main actor,
  /// otherwise scheduled onto the main queue, in post order.
  ///
  /// On Linux the main actor runs on the main queue, which a program drains only from an
  /// `async` entry point, `dispatchMain()` or a run loop.
  public static let mainActor = Delivery(.mainActor)

  /// Where a handler runs, given the delivery asked for and the isolation the handler was
  /// written in: a handler isolated to an actor always runs on that actor, whatever `self`
  /// says; a nonisolated one (`isolation == nil`) runs as `self` says.
  @inlinable
  package func honouring(_ isolation: (any Actor)?) -> Delivery {
    guard let isolation else { return self }
    return isolation is MainActor ? .mainActor : Delivery(.actor(isolation))
  }
}
