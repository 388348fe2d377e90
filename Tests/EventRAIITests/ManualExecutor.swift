import EventTestSupport
import Synchronization

/// A serial executor that holds the jobs enqueued on it until the test runs them, so a test can
/// act between "a job hopped onto the actor" and "the job ran".
final class ManualExecutor: SerialExecutor {
  private let jobs = Mutex<[UnownedJob]>([])
  /// Fires once for each job enqueued.
  let enqueued = Signal()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
    enqueued.fire()
  }

  /// Runs the jobs enqueued so far, in order, on the calling thread.
  func runEnqueued() {
    let due = jobs.withLock { jobs in
      defer { jobs = [] }
      return jobs
    }
    for job in due { job.runSynchronously(on: asUnownedSerialExecutor()) }
  }
}

/// A global actor whose jobs run only when a test lets them, through ``ManualExecutor``.
@globalActor
actor HeldActor {
  static let shared = HeldActor()
  static let executor = ManualExecutor()

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    Self.executor.asUnownedSerialExecutor()
  }
}
