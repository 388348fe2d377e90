import Dispatch

extension ObserverEntry {
  /// The handler closures of a dying entry, on their way to the actor that releases them.
  final class Captures: Sendable {
    let handlers: Lock<(plain: (Payload) -> Void, bound: (AnyObject, Payload) -> Void)?>

    init(_ entry: ObserverEntry) {
      handlers = Lock((entry.plain, entry.bound))
    }

    /// Drops the closures, and so what they captured, after the lock: on the calling thread.
    func release() {
      let taken = handlers.withLock { handlers in
        defer { handlers = nil }
        return handlers
      }
      _ = taken
    }
  }

  /// Called by `deinit` for a registration isolated to an actor: when the entry dies off that
  /// actor, its closures are copied and sent there, so that the copy is the last reference to
  /// what they captured and its release (a `deinit` of the actor's object) runs on the actor.
  ///
  /// The main actor is told apart synchronously, so an entry that dies on it releases in place;
  /// another actor always gets a job, since Swift has no synchronous check of the running actor.
  /// A dead actor's captures go with the entry, wherever that is: nothing can run on it.
  @usableFromInline func releaseHandlersOnTheirActor() {
    switch delivery.kind {
    case .mainActor(isolated: true):
      guard !MainActorDetection.isOnMainActor else { return }
      let captures = Captures(self)
      DispatchQueue.main.async { captures.release() }
    case .actor(let actor):
      guard let actor = actor.object else { return }
      let captures = Captures(self)
      Task { await Self.release(captures, on: actor) }
    case .synchronous, .queue, .mainActor(isolated: false):
      return
    }
  }

  private static func release(_ captures: Captures, on actor: isolated any Actor) {
    captures.release()
  }
}
