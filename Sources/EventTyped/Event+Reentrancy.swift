extension Event {
  /// Posts `payload` under ``Reentrancy/queued``: behind the post of this event that the calling
  /// thread is delivering, if any; otherwise at once, then every post nested in it, in the order
  /// they were made, before returning.
  ///
  /// The frame lives on this call's stack and the thread-specific slot points to it while the
  /// post runs, so a post that nests nothing allocates nothing. No lock is held while handlers
  /// run, and nothing waits: a nested post only appends to its frame's queue.
  @inlinable
  func postQueued(_ payload: Payload) -> Int {
    let id = ObjectIdentifier(self)
    let top = PostFrames.top
    if let outer = PostFrames.frame(of: id, from: top) {
      return queueNested(payload, in: outer)
    }
    var frame = PostFrame(event: id, below: top)
    return withUnsafeMutablePointer(to: &frame) { frame in
      PostFrames.setTop(UnsafeMutableRawPointer(frame))
      let reached = deliver(payload)
      if frame.pointee.pending != nil { drain(frame) }
      PostFrames.setTop(top)
      return reached
    }
  }

  /// Queues a post nested in the post that `frame` delivers. The one place a nested post ends.
  ///
  /// - Returns: The number of registrations live when it was queued.
  @usableFromInline
  func queueNested(_ payload: Payload, in frame: UnsafeMutablePointer<PostFrame>) -> Int {
    let pending: PendingPosts<Payload>
    if let existing = frame.pointee.pending {
      pending = unsafeDowncast(existing, to: PendingPosts<Payload>.self)
    } else {
      pending = PendingPosts()
      frame.pointee.pending = pending
    }
    pending.append(payload)
    return list.registeredCount
  }

  /// Delivers the posts queued in `frame`, oldest first, including those that their handlers
  /// queue meanwhile, until none is left.
  @usableFromInline
  func drain(_ frame: UnsafeMutablePointer<PostFrame>) {
    guard let pending = frame.pointee.pending else { return }
    let queue = unsafeDowncast(pending, to: PendingPosts<Payload>.self)
    while let next = queue.next() { _ = deliver(next) }
  }
}
