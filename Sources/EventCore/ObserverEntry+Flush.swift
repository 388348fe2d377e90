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
    switch delivery.kind {
    case .queue(let queue):
      return queue
    case .mainActor:
      // Decremented only once the queued invocation has run: 0 means none is outstanding.
      return queuedOnMain.load(ordering: .acquiring) == 0 ? nil : .main
    case .synchronous, .actor:
      return nil
    }
  }

  /// Calls `done` once every delivery handed to this registration so far has run (or been
  /// skipped because it ended), for a registration whose ``flushQueue`` is `nil`.
  ///
  /// A synchronous or a `.mainActor` registration with nothing queued has run its deliveries
  /// before their posts returned: `done` runs at once. An actor's registration queues a marker
  /// in its mailbox, behind its payloads. Never waits: `done` runs on whichever thread gets
  /// there.
  package func afterQueuedDeliveries(_ done: @escaping @Sendable () -> Void) {
    guard case .actor = delivery.kind, let mailbox = mailbox.load(as: Mailbox.self) else {
      return done()
    }
    let queued = mailbox.state.withLock { state -> Bool in
      // Payloads are appended and draining starts under this lock, so a mailbox that is not
      // draining has delivered everything.
      guard state.isDraining else { return false }
      state.payloads.append(.flush(done))
      return true
    }
    if !queued { done() }
  }
}

/// What waits in an actor registration's mailbox: a payload to deliver, or the marker of a
/// flush, called in its place in the order.
@usableFromInline enum MailboxItem<Payload> {
  case payload(Payload)
  case flush(@Sendable () -> Void)
}

extension MailboxItem: Sendable where Payload: Sendable {}
