#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One post of a ``Reentrancy/queued`` event in progress on the current thread, kept on that
/// post's own stack: the frames of a thread form a linked stack (one frame per queued event it is
/// delivering, the innermost on top), whose top the thread-specific slot ``PostFrames/key``
/// points to.
///
/// A frame on the stack, a thread-specific pointer to it and its pointer to the one below cost
/// no allocation, which a thread-local dictionary (Foundation's `threadDictionary`) would. Only
/// the thread that owns the frame reads or writes it, so it needs no lock.
@usableFromInline struct PostFrame {
  /// The event whose post this frame delivers.
  @usableFromInline let event: ObjectIdentifier
  /// The frame below, of another event that the thread was delivering when this post started.
  @usableFromInline let below: UnsafeMutableRawPointer?
  /// The nested posts waiting for this one, created by the first of them: a
  /// ``PendingPosts`` of the event's payload.
  @usableFromInline var pending: AnyObject?

  @inlinable init(event: ObjectIdentifier, below: UnsafeMutableRawPointer?) {
    self.event = event
    self.below = below
    self.pending = nil
  }
}

/// The payloads posted while a ``PostFrame``'s post was in progress, in post order.
///
/// Owned by one thread (through its frame), so not `Sendable` and without a lock.
@usableFromInline final class PendingPosts<Payload> {
  @usableFromInline var payloads: [Payload?] = []
  @usableFromInline var head = 0

  @usableFromInline init() {}

  /// Queues `payload` behind the others.
  @usableFromInline func append(_ payload: Payload) {
    payloads.append(payload)
  }

  /// The oldest payload not yet delivered, dropped from the queue; `nil` once it is empty.
  @usableFromInline func next() -> Payload? {
    guard head < payloads.count else { return nil }
    defer {
      payloads[head] = nil
      head += 1
      if head == payloads.count {
        payloads.removeAll(keepingCapacity: true)
        head = 0
      }
    }
    return payloads[head]
  }
}

/// The thread-specific stack of ``PostFrame``s.
@usableFromInline enum PostFrames {
  /// The slot that holds the address of the calling thread's innermost frame, `nil` when it
  /// delivers no queued post. Created once per process; never deleted.
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    guard status == 0 else {
      fatalError("Events: pthread_key_create failed (\(status)) for Reentrancy.queued")
    }
    return key
  }()

  /// The calling thread's innermost frame, if it delivers a queued post.
  @usableFromInline static var top: UnsafeMutableRawPointer? {
    pthread_getspecific(key)
  }

  /// Makes `frame` (or, with `nil`, no frame) the calling thread's innermost.
  @usableFromInline static func setTop(_ frame: UnsafeMutableRawPointer?) {
    _ = pthread_setspecific(key, frame)
  }

  /// The calling thread's frame of `event`, if the thread is delivering a post of it, starting
  /// from `top`.
  @usableFromInline static func frame(
    of event: ObjectIdentifier, from top: UnsafeMutableRawPointer?
  )
    -> UnsafeMutablePointer<PostFrame>?
  {
    var current = top
    while let raw = current {
      let frame = raw.assumingMemoryBound(to: PostFrame.self)
      if frame.pointee.event == event { return frame }
      current = frame.pointee.below
    }
    return nil
  }
}

extension PostFrames {
  /// Posts `payload` for the queued event `owner`: behind the post of `owner` that the calling
  /// thread is delivering, if any; otherwise at once (`deliver`), then every post nested in it, in
  /// the order they were made, before returning.
  ///
  /// The frame lives on this call's stack and the thread-specific slot points to it while the
  /// post runs, so a post that nests nothing allocates nothing. No lock is held while handlers
  /// run, and nothing waits: a nested post only appends to its frame's queue.
  ///
  /// - Returns: What `deliver` returns; for a nested post, what `registered` counts when it is
  ///   queued: the registrations live then.
  @inlinable
  static func post<Payload>(
    _ payload: Payload, queuedBy owner: ObjectIdentifier, deliver: (Payload) -> Int,
    registered: () -> Int
  ) -> Int {
    let top = top
    if let outer = frame(of: owner, from: top) {
      queue(payload, in: outer)
      return registered()
    }
    var frame = PostFrame(event: owner, below: top)
    return withUnsafeMutablePointer(to: &frame) { frame in
      setTop(UnsafeMutableRawPointer(frame))
      let reached = deliver(payload)
      if let pending = frame.pointee.pending {
        let queue = unsafeDowncast(pending, to: PendingPosts<Payload>.self)
        while let next = queue.next() { _ = deliver(next) }
      }
      setTop(top)
      return reached
    }
  }

  /// Queues a post nested in the post that `frame` delivers. The one place a nested post ends.
  @usableFromInline
  static func queue<Payload>(_ payload: Payload, in frame: UnsafeMutablePointer<PostFrame>) {
    let pending: PendingPosts<Payload>
    if let existing = frame.pointee.pending {
      pending = unsafeDowncast(existing, to: PendingPosts<Payload>.self)
    } else {
      pending = PendingPosts()
      frame.pointee.pending = pending
    }
    pending.append(payload)
  }
}
