import Synchronization

/// One registration's backlog: the calls queued for it that have not run yet, under a lock,
/// with the ``MailboxStateMachine`` that decides what waits, what is dropped and what is
/// reported. Made by the registration's first queued call.
///
/// One drain at a time takes the calls in order, one per lock, so that a bounded backlog holds
/// exactly its limit and can still drop the oldest of what waits.
@usableFromInline package final class Mailbox<Payload: Sendable>: Sendable {
  /// The most calls a drain makes before it gives its actor or queue up (guarantee 14).
  package static var batchLimit: Int { 16 }

  package let state: Lock<MailboxStateMachine<Payload>>
  /// The flow of the registration's channel, if its list has one.
  package let flow: FlowControl?
  /// Whether the first unobserved drop of this registration was printed.
  let printedDrop = Atomic<Bool>(false)
  /// Whether this registration's unbounded backlog was warned about (see
  /// ``EventDiagnostics/backlogWarning``).
  let warned = Atomic<Bool>(false)

  package init(flow: FlowControl?) {
    self.flow = flow
    state = Lock(MailboxStateMachine(backlog: flow?.backlog ?? .unbounded))
  }

  /// Whether calls go through the mailbox whatever the delivery (a bounded backlog), rather
  /// than only for an actor.
  package var isBounded: Bool { flow?.isBounded ?? false }

  /// Reports `count` drops of the registration written at `site`.
  package func reportDrops(_ count: Int, of site: RegistrationSite) {
    flow?.reportDrops(count, of: site) { !printedDrop.exchange(true, ordering: .relaxed) }
  }

  /// Prints the backlog warning for the registration written at `site`, the first time only.
  package func warnOnce(of site: RegistrationSite, waiting: Int) {
    guard !warned.exchange(true, ordering: .relaxed) else { return }
    if let flow {
      flow.warnBacklog(of: site, waiting: waiting)
    } else {
      FlowControl.warnBacklog(of: site, waiting: waiting, channel: "an event")
    }
  }
}
