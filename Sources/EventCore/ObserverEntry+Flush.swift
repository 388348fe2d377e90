import Dispatch
import Synchronization

extension ObserverEntry where Payload: Sendable {
  /// The serial queue that runs this registration's deliveries, if a marker enqueued there runs
  /// after every delivery queued for it so far: its `.queue(q)`, or the main queue while a
  /// `.mainActor` delivery is queued there. `nil` when ``afterQueuedDeliveries(_:)`` decides.
  ///
  /// One marker per queue serves every registration on it, so a flush enqueues one block per
  /// queue, not one per registration.
  package var flushQueue: DispatchQueue? {
    // A bounded backlog's calls are batched on the queue, so a marker there could overtake
    // them: the mailbox takes the marker instead.
    if mailbox.load(as: Mailbox<Payload>.self)?.isBounded == true { return nil }
    switch delivery.kind {
    case .queue(let queue):
      return queue
    case .mainActor:
      // Decremented only once the queued invocation has run: 0 means none is outstanding.
      return queuedCalls.load(ordering: .acquiring) == 0 ? nil : .main
    case .synchronous, .actor:
      return nil
    }
  }

  /// Calls `done` once every delivery handed to this registration so far has run (or been
  /// skipped because it ended), for a registration whose ``flushQueue`` is `nil`.
  ///
  /// A synchronous or a `.mainActor` registration with nothing queued has run its deliveries
  /// before their posts returned: `done` runs at once. An actor's registration, or one with a
  /// bounded backlog, queues a marker in its mailbox, behind its payloads. Never waits: `done`
  /// runs on whichever thread gets there.
  package func afterQueuedDeliveries(_ done: @escaping @Sendable () -> Void) {
    guard let mailbox = mailbox.load(as: Mailbox<Payload>.self) else { return done() }
    // Payloads are appended and draining starts under this lock, so a mailbox that is not
    // draining has delivered everything.
    let onMainActor = mailbox.isBounded && delivery.kind.isMainActor
    if !mailbox.enqueueMarker(done, onMainActor: onMainActor) { done() }
  }
}
