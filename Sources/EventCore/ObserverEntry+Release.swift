import Dispatch

/// The handler of a registration isolated to an actor, behind the entry's handler fields, so
/// that what it captured is released on that actor.
///
/// The last reference to an entry can be dropped on any thread: the last post to leave a
/// storage clears the slot of an entry cancelled meanwhile. A handler written in code isolated
/// to an actor may capture that actor's objects (a `@MainActor` model), whose `deinit` must not
/// run elsewhere (guarantee 12). So the entry's `deinit`, off that actor, hands these captures
/// to a job on the actor, which releases them there once it holds the only reference: the
/// entry's own fields release theirs just after its `deinit` body, on the dying thread, and a
/// job that ran first would otherwise not be the last to let go.
///
/// `@unchecked Sendable`: both fields are immutable, and the closures run only where the
/// entry's delivery says, as `ObserverEntry`'s do.
@usableFromInline final class IsolatedCaptures<Payload>: @unchecked Sendable {
  @usableFromInline let plain: (Payload) -> Void
  @usableFromInline let bound: (AnyObject, Payload) -> Void

  @usableFromInline init(plain: @escaping (Payload) -> Void) {
    self.plain = plain
    self.bound = { _, _ in }
  }

  @usableFromInline init(bound: @escaping (AnyObject, Payload) -> Void) {
    self.plain = { _ in }
    self.bound = bound
  }
}

/// The captures of a dying entry on their way to their actor; not generic, so that an entry's
/// `deinit` looks up no metadata.
private final class Handoff: Sendable {
  let captures: Lock<AnyObject?>

  init(_ captures: AnyObject) {
    self.captures = Lock(captures)
  }

  /// Releases the captures on the calling thread if nothing else references them any more.
  ///
  /// - Returns: `false` while the dying entry's fields still hold them: try again shortly.
  func releaseIfLast() -> Bool {
    let taken = captures.withLock { captures -> AnyObject?? in
      guard isKnownUniquelyReferenced(&captures) else { return .none }
      defer { captures = nil }
      return .some(captures)
    }
    // Released here, after the lock.
    return taken != nil
  }
}

/// Where a dying entry's ``IsolatedCaptures`` are released.
@usableFromInline enum CapturesRelease {
  /// Sends `captures` to be released on the actor `kind` names, unless the caller runs there
  /// (the entry's fields then release them in place).
  ///
  /// The main actor is told apart synchronously; another actor always gets a job, since Swift
  /// has no synchronous check of the running actor. A dead actor's captures go with the entry:
  /// nothing can run on it any more.
  @usableFromInline static func release(_ captures: AnyObject, on kind: Delivery.Kind) {
    switch kind {
    case .mainActor(isolated: true):
      guard !MainActorDetection.isOnMainActor else { return }
      releaseOnMain(Handoff(captures))
    case .actor(let actor):
      guard let actor = actor.object else { return }
      let handoff = Handoff(captures)
      Task { await release(handoff, on: actor) }
    case .synchronous, .queue, .mainActor(isolated: false):
      return
    }
  }

  private static func releaseOnMain(_ handoff: Handoff) {
    DispatchQueue.main.async {
      if !handoff.releaseIfLast() { releaseOnMain(handoff) }
    }
  }

  private static func release(_ handoff: Handoff, on actor: isolated any Actor) async {
    while !handoff.releaseIfLast() { await Task.yield() }
  }
}
