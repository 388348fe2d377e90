import EventCore

/// The buffer between an event's registration and the consumer of one ``Event/values`` stream.
///
/// `AsyncStream`'s own buffer hands out what it holds after the consuming task is cancelled
/// (it finishes, and a finished stream drains first), so the stream reads from this one
/// instead: every element is handed out only after a check that the consuming task is not
/// cancelled, and a cancellation drops what is buffered and ends the registration.
///
/// The registration yields into it on the posting thread; one task at a time reads it.
final class ValueChannel<Payload: Sendable>: Sendable {
  typealias Policy = AsyncStream<Payload>.Continuation.BufferingPolicy
  typealias Waiter = UnsafeContinuation<Payload?, Never>

  private struct State: Sendable {
    /// Buffered values, oldest at `head`; each read one is taken out (`nil`), so that the
    /// reader releases it, after the lock, and the buffer keeps nothing it handed out.
    var buffer: ContiguousArray<Payload?> = []
    var head = 0
    var waiter: Waiter?
    /// Finished: no more values arrive; the buffered ones are still read.
    var isFinished = false

    var count: Int { buffer.count - head }

    mutating func removeFirst() -> Payload {
      let value = buffer[head].take().unsafelyUnwrapped
      head += 1
      // Compacted once the read part outweighs the rest, which drops only `nil`s: amortised
      // O(1) per value.
      if head >= 16 && head * 2 >= buffer.count {
        buffer.removeFirst(head)
        head = 0
      }
      return value
    }

    /// The oldest buffered value; `.some(nil)` once finished and read; `nil` when the reader
    /// must wait.
    mutating func takeIfReady() -> Payload?? {
      if count > 0 { return .some(removeFirst()) }
      return isFinished ? .some(nil) : nil
    }

    /// Empties the buffer; the values are returned, for the caller to release after its lock.
    mutating func drain() -> ContiguousArray<Payload?> {
      defer {
        buffer = []
        head = 0
      }
      return buffer
    }
  }

  private let policy: Policy
  private let state = Lock(State())
  /// The registration that feeds the channel, and what forgets the channel once it ends; set
  /// once, before the channel is handed out, and taken by the first end.
  private let links = Lock<(registration: Subscription, forget: @Sendable () -> Void)?>(nil)

  init(policy: Policy) {
    self.policy = policy
  }

  /// Ties the channel to the registration that feeds it, which ending the channel ends, and to
  /// `forget`, which it calls then, after every lock.
  func attach(_ registration: Subscription, forget: @escaping @Sendable () -> Void) {
    links.withLock { $0 = (registration, forget) }
  }

  /// Ends the registration and forgets the channel, once.
  private func detach() {
    guard let links = links.withLock({ $0.take() }) else { return }
    links.registration.cancel()
    links.forget()
  }

  /// Hands `value` to a waiting consumer, or buffers it as the policy says.
  func yield(_ value: Payload) {
    let (waiter, dropped) = state.withLock { state -> (Waiter?, Payload?) in
      guard !state.isFinished else { return (nil, value) }
      if let waiter = state.waiter {
        state.waiter = nil
        return (waiter, nil)
      }
      switch policy {
      case .unbounded:
        state.buffer.append(value)
      case .bufferingOldest(let limit):
        guard state.count < limit else { return (nil, value) }
        state.buffer.append(value)
      case .bufferingNewest(let limit):
        guard limit > 0 else { return (nil, value) }
        let dropped = state.count == limit ? state.removeFirst() : nil
        state.buffer.append(value)
        return (nil, dropped)
      @unknown default:
        state.buffer.append(value)
      }
      return (nil, nil)
    }
    _ = dropped
    waiter?.resume(returning: value)
  }

  /// No more values: the registration ends, and the consumer reads what is buffered, then
  /// `nil`.
  func finish() {
    let waiter = state.withLock { state -> Waiter? in
      state.isFinished = true
      defer { state.waiter = nil }
      return state.waiter
    }
    detach()
    waiter?.resume(returning: nil)
  }

  /// The consumer is gone or cancelled: drops what is buffered, ends the registration, and
  /// hands a waiting consumer `nil`.
  func cancel() {
    let (waiter, dropped) = state.withLock { state -> (Waiter?, ContiguousArray<Payload?>) in
      state.isFinished = true
      defer { state.waiter = nil }
      return (state.waiter, state.drain())
    }
    _ = dropped
    detach()
    waiter?.resume(returning: nil)
  }

  /// The next value, or `nil` once the channel is finished and read, or once the consuming
  /// task is cancelled (which drops what is buffered).
  func next() async -> Payload? {
    guard !Task.isCancelled else {
      cancel()
      return nil
    }
    // A buffered value is handed out without suspending.
    if let ready = state.withLock({ $0.takeIfReady() }) { return ready }
    let value = await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: Waiter) in
        let ready = state.withLock { state -> Payload?? in
          if let ready = state.takeIfReady() { return ready }
          guard state.waiter == nil else {
            fatalError("Event.values: a stream was read by two tasks at once; use one per task")
          }
          state.waiter = waiter
          return nil
        }
        if let ready { waiter.resume(returning: ready) }
      }
    } onCancel: {
      cancel()
    }
    // A value handed over as the task was being cancelled is dropped too.
    guard value == nil || !Task.isCancelled else {
      cancel()
      return nil
    }
    return value
  }
}

/// Cancels the channel when the stream that reads it is released, read or not.
final class ValueConsumer<Payload: Sendable>: Sendable {
  let channel: ValueChannel<Payload>

  init(_ channel: ValueChannel<Payload>) {
    self.channel = channel
  }

  deinit {
    channel.cancel()
  }
}
