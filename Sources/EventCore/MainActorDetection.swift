#if canImport(Darwin)
  import Darwin
#endif

/// Tells whether the current code runs on the main actor.
///
/// On Linux, under `swift test` or an `async` entry point, the main actor runs its jobs on the
/// main queue but not always on the main thread, so the main thread says nothing there; a
/// queue-specific value set on the main queue is visible exactly when the main queue is the one
/// executing.
///
/// On Apple platforms the main queue runs only on the main thread, and code on the main thread
/// is on the main actor even when the main queue is not the one executing: inside
/// `serialQueue.sync` from the main thread, where `MainActor.assumeIsolated` passes but the
/// queue-specific value is not visible. So there the main thread counts too
/// (`pthread_main_np`, what `Thread.isMainThread` reads, without Foundation).
@usableFromInline package enum MainActorDetection {
  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// Whether the caller runs on the main actor.
  @usableFromInline package static var isOnMainActor: Bool {
    #if canImport(Darwin)
      if pthread_main_np() != 0 { return true }
    #endif
    return DispatchQueue.getSpecific(key: key) != nil
  }
}
