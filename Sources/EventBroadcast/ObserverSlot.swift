/// Where a notification's entry leaves its observer for the notification to hand to `body`.
///
/// `storage` is uninitialized memory for one `P`, on the notifying thread's stack. An entry
/// whose observer is alive copies the observer's bytes there, retained, and sets `isFilled`; the
/// notification then moves the `P` out, which takes over that retain.
@usableFromInline struct ObserverSlot {
  @usableFromInline let storage: UnsafeMutableRawPointer
  @usableFromInline var isFilled = false

  @inlinable init(storage: UnsafeMutableRawPointer) {
    self.storage = storage
  }

  /// The observer an entry left, as the `P` it was registered as, or `nil` if none was left.
  ///
  /// - Precondition: `P` is the type the observer was registered as.
  @inlinable mutating func take<P>(as _: P.Type) -> P? {
    guard isFilled else { return nil }
    isFilled = false
    return storage.assumingMemoryBound(to: P.self).move()
  }
}
