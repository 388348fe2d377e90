import EventCore
import Synchronization

/// The calls waiting for one async handler: a ``Mailbox`` with the event's backlog, drained by
/// one task at a time on the handler's isolation, each call starting when the previous one has
/// returned.
///
/// The registration that feeds it is a synchronous entry whose handler is ``arrive(_:)``, on
/// the posting thread. A drain is a task that runs until the mailbox is empty, giving its actor
/// up after every ``Mailbox/batchLimit`` calls (guarantee 14), and the next arrival starts
/// another: an idle handler holds no task.
///
/// The first drain waits for ``activate(handedOver:)``: what arrives while the registration is
/// being made (its replay, what an `.untilObserved` event hands over) is not a backlog, so it
/// is never counted or dropped, and the drain needs the hand-over to count those payloads as
/// started.
final class AsyncHandlerQueue<Payload: Sendable>: Sendable {
  typealias Handler = @isolated(any) @Sendable (Payload) async throws -> Void

  /// A payload with its place among the registration's arrivals (0 for the first).
  struct Call: Sendable {
    let payload: Payload
    let position: Int
  }

  let mailbox: Mailbox<Call>
  private let handler: Handler
  private let site: RegistrationSite
  private let thrown: ThrowSite?
  /// The user's token: once it is cancelled, no further call starts.
  private let calls: Liveness
  /// Bound around every drain, so that a `send` made from the handler does not wait for its
  /// own queue.
  private let running: RunningAsyncHandler
  private let arrivals = Atomic<Int>(0)
  private let start = Lock(Start())

  private struct Start {
    var isActive = false
    /// A drain was due before ``activate(handedOver:)``: it starts there.
    var isDue = false
    var handedOver: HandedOver<Payload>?
  }

  init(
    _ handler: @escaping Handler, flow: FlowControl?, site: RegistrationSite,
    reporting thrown: ThrowSite?, while calls: Liveness, running: RunningAsyncHandler
  ) {
    self.mailbox = Mailbox(flow: flow) { "Event<\(Payload.self)>" }
    self.handler = handler
    self.site = site
    self.thrown = thrown
    self.calls = calls
    self.running = running
  }

  /// Queues `payload` for the handler, on the posting thread. Never waits.
  ///
  /// - Returns: `false` when the backlog refused it (`.dropNewest`).
  func arrive(_ payload: Payload) -> Bool {
    let position = arrivals.wrappingAdd(1, ordering: .relaxed).oldValue
    let isRegistering = !start.withLock { $0.isActive }
    let outcome = mailbox.enqueue(
      Call(payload: payload, position: position), site: site, replayed: isRegistering
    ) {
      let starts = start.withLock { start -> Bool in
        guard start.isActive else {
          start.isDue = true
          return false
        }
        return true
      }
      if starts { startDrain() }
    }
    if case .refused = outcome { return false }
    return true
  }

  /// Lets the drains start, once the registration is made and its hand-over known.
  func activate(handedOver: HandedOver<Payload>?) {
    let due = start.withLock { start -> Bool in
      start.handedOver = handedOver
      start.isActive = true
      defer { start.isDue = false }
      return start.isDue
    }
    if due { startDrain() }
  }

  /// Queues `done` behind the calls waiting now; calls it at once when none waits.
  func afterQueuedCalls(_ done: @escaping @Sendable () -> Void) {
    if !mailbox.state.withLock({ $0.enqueueMarker(done) }) { done() }
  }

  private func startDrain() {
    Task {
      await RunningAsyncHandler.$current.withValue(running) {
        await drain(on: handler.isolation)
      }
    }
  }

  /// Runs the waiting calls, in order, on `isolation`, the handler's own: a call starts
  /// without a hop, right after the check that the subscription is live.
  private func drain(on isolation: isolated (any Actor)?) async {
    let handedOver = start.withLock { $0.handedOver }
    for _ in 0..<Mailbox<Call>.batchLimit {
      switch mailbox.state.withLock({ $0.next() }) {
      case .payload(let call, let report):
        if let report { mailbox.reportDrops(report, of: site) }
        guard calls.isLive else { continue }
        if let handedOver, !handedOver.start(at: call.position) { continue }
        do { try await handler(call.payload) } catch { thrown?.report(error) }
      case .marker(let done):
        done()
      case .idle:
        return
      }
    }
    startDrain()
  }
}
