/// Tells whether the current code runs on the main actor, without `Thread.isMainThread`.
///
/// On Linux, under `swift test` or an `async` entry point, the main actor runs its jobs on the
/// main queue but not always on the main thread; a queue-specific value set on the main queue
/// is visible exactly when the main queue is the one executing.
@usableFromInline package enum MainActorDetection {
  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// Whether the caller runs on the main actor's queue.
  @usableFromInline package static var isOnMainActor: Bool {
    DispatchQueue.getSpecific(key: key) != nil
  }
}
