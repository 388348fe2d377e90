import EventCore

/// A task executor that runs jobs on a dispatch queue: an async body notified to a `.queue(q)`
/// registration starts on `q` and, between its suspensions, stays there (SE-0417).
final class QueueExecutor: TaskExecutor {
  let queue: DispatchQueue

  init(_ queue: DispatchQueue) {
    self.queue = queue
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
