import Foundation

/// Names the queue or thread the current code runs on, for the log.
///
/// Dispatch has no portable "current queue label" (`__dispatch_queue_get_label` is not available
/// on Linux), so every queue the demo creates carries its label as a queue-specific value, and
/// the main queue is marked as the main actor's: under an `async` `@main` the main actor runs
/// its jobs on the main queue, on Linux too, though not always on the main thread.
enum ExecutionContext {
  private static let key: DispatchSpecificKey<String> = {
    let key = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: key, value: "main actor")
    return key
  }()

  /// Creates a serial queue whose label the log shows for code running on it.
  static func queue(_ label: String) -> DispatchQueue {
    let queue = DispatchQueue(label: label)
    queue.setSpecific(key: key, value: label)
    return queue
  }

  /// The label of the current queue, "main actor" for the main queue, or a description of the
  /// thread when the queue is not one of the demo's.
  static var current: String {
    if let label = DispatchQueue.getSpecific(key: key) { return label }
    return Thread.isMainThread ? "main thread" : "other thread"
  }
}
