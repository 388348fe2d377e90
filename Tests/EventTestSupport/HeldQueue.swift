public import Dispatch

/// Holds `queue` while `post` runs and `flush` starts, then lets the queue go, and returns
/// what `flush` read once it returned: a test that a flush waits for the deliveries `queue`
/// runs, asserted on the flush's own result rather than by polling.
///
/// A correct flush waits for the held deliveries whenever it starts; the yields only give a
/// flush that does not wait the chance to return while the queue is still held, so that such
/// a regression shows as a short result instead of passing by luck.
///
/// - Parameters:
///   - queue: The serial queue the deliveries run on (the main queue, an actor's executor's).
///   - seconds: How long to wait for the flush, once the queue is let go.
///   - post: Posts what the flush must wait for.
///   - flush: Flushes, then reads what the deliveries recorded.
/// - Returns: What `flush` read, or `nil` if it did not return within `seconds`.
public func flushResult<Value: Sendable>(
  holding queue: DispatchQueue, seconds: Double = 10, post: () -> Void,
  flush: @escaping @Sendable () async -> Value
) async -> Value? {
  // A block that waits, rather than `suspend()`, which the main queue ignores. Bounded: a
  // test that never lets it go still frees the queue.
  let held = Signal()
  queue.async { _ = held.wait(seconds: seconds) }
  post()
  let flushed = Task { await flush() }
  for _ in 0..<20 { await Task.yield() }
  held.fire()
  let result = Recorder<Value>()
  guard await finishes(within: seconds, { result.record(await flushed.value) }) else {
    return nil
  }
  return result.values.first
}

/// A serial executor that runs an actor's jobs on a dispatch queue, so that a test can hold
/// the actor by holding the queue (see `flushResult(holding:seconds:post:flush:)`).
public final class QueueSerialExecutor: SerialExecutor {
  /// The queue the jobs run on.
  public let queue: DispatchQueue

  /// An executor on a serial queue of its own, labelled `label`.
  public init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Runs `job` on ``queue``, behind what is queued there.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
}

/// An actor whose jobs run on a ``QueueSerialExecutor``, so that a test can hold it by holding
/// the executor's queue, recording every value it handles.
public actor QueueActor<Value: Sendable> {
  private nonisolated let executor: QueueSerialExecutor
  /// The executor's: every job of the actor runs on its queue.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }
  /// What ``handle(_:)`` was called with, in order.
  public nonisolated let seen = Recorder<Value>()

  /// An actor whose jobs run on `executor`'s queue.
  public init(executor: QueueSerialExecutor) {
    self.executor = executor
  }

  /// Records `value`.
  public func handle(_ value: Value) {
    seen.record(value)
  }
}
