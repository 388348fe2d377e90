extension Event {
  /// Posts `payload` under ``Reentrancy/queued``: behind the post of this event that the calling
  /// thread is delivering, if any; otherwise at once, then every post nested in it; see
  /// ``PostFrames/post(_:queuedBy:deliver:registered:)``.
  @inlinable
  func postQueued(_ payload: Payload) -> Int {
    PostFrames.post(
      payload, queuedBy: ObjectIdentifier(self), deliver: { deliver($0) },
      registered: { list.registeredCount })
  }
}
