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
    /// The values received so far, dropped ones included: the position of the next one.
    var arrivals = 0
    /// The registration, until the first value shows whether it was handed held payloads.
    var registration: ObserverEntry<Payload>?
    /// What an `.untilObserved` event handed over, while any of it may still be buffered.
    var handedOver: HandedOver<Payload>?
    /// The positions of the buffered handed-over values, oldest first: a prefix of the
    /// buffer, since they arrive before any live value.
    var handedPositions: ContiguousArray<Int> = []
    var handedHead = 0
    /// What the buffer's policy dropped, reported to the event's `drops`.
    var drops = DropTally()
    /// The arrivals read or dropped: what a `send` waits for.
    var passed = 0
    /// The task that reads the stream, once it has started: a `send` made there does not wait
    /// for it.
    var consumer: Int?
    /// The `send` calls waiting until `passed` reaches theirs, oldest first.
    var sends: [(upTo: Int, done: @Sendable () -> Void)] = []

    /// Counts `count` more arrivals as read or dropped, and returns the sends that were waiting
    /// for them, to be resumed after the lock.
    mutating func pass(_ count: Int = 1) -> [@Sendable () -> Void] {
      passed += count
      guard sends.first.map({ $0.upTo <= passed }) == true else { return [] }
      let ready = sends.prefix { $0.upTo <= passed }.map(\.done)
      sends.removeFirst(ready.count)
      return ready
    }

    var count: Int { buffer.count - head }

    /// The position of the value that arrives now, and whether it was handed over.
    mutating func arrive() -> (position: Int, handed: Bool) {
      if let registration {
        self.registration = nil
        handedOver = HandedOver(registration)
      }
      defer { arrivals += 1 }
      return (arrivals, handedOver?.covers(arrivals) ?? false)
    }

    /// The position of the oldest buffered value if it was handed over, which leaves the buffer.
    mutating func leavesHanded() -> Int? {
      guard handedHead < handedPositions.count else { return nil }
      defer {
        handedHead += 1
        if handedHead == handedPositions.count {
          handedPositions = []
          handedHead = 0
        }
      }
      return handedPositions[handedHead]
    }

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

    /// The oldest buffered value, with its position if it was handed over; `.some(nil)` once
    /// finished and read; `nil` when the reader must wait.
    mutating func takeIfReady() -> Taken?? {
      if count > 0 {
        let position = leavesHanded()
        return .some(
          Taken(
            value: removeFirst(), handedPosition: position, report: drops.call(), passed: pass()))
      }
      return isFinished ? .some(nil) : nil
    }

    /// Empties the buffer; the values are returned, for the caller to release after its lock.
    /// The handed-over ones among them were never started: ending the registration gives them
    /// back to the event's hold.
    mutating func drain() -> ContiguousArray<Payload?> {
      defer {
        buffer = []
        head = 0
        handedPositions = []
        handedHead = 0
        handedOver = nil
        registration = nil
      }
      return buffer
    }
  }

  /// A value read from the buffer.
  struct Taken: Sendable {
    let value: Payload
    /// Its position, if an `.untilObserved` event handed it over: it starts only if it has not
    /// gone back to the hold.
    let handedPosition: Int?
    /// The drops to report before the value is handed out.
    let report: Int?
    /// The sends that waited for it, resumed once it is read.
    let passed: [@Sendable () -> Void]
  }

  private let policy: Policy
  /// Where the drops of the policy go (the event's `drops`, with the stream's site).
  private let reportDrops: @Sendable (Int) -> Void
  private let state = Lock(State())
  /// The registration that feeds the channel, and what forgets the channel once it ends; set
  /// once, before the channel is handed out, and taken by the first end.
  private let links = Lock<(registration: Subscription, forget: @Sendable () -> Void)?>(nil)

  init(policy: Policy, reportDrops: @escaping @Sendable (Int) -> Void) {
    self.policy = policy
    self.reportDrops = reportDrops
  }

  /// Counts what an `.untilObserved` event hands `registration` as handed over only once the
  /// consumer reads it (or the buffer's policy drops it). Call it before the registration is
  /// made; `registration` must be made with `startsWhereConsumed()`.
  func countsHandOver(of registration: ObserverEntry<Payload>) {
    state.withLock { $0.registration = registration }
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
  ///
  /// A handed-over value counts as started when a waiting consumer takes it, and when the
  /// policy drops it (the consumer's own choice); one that stays buffered, when it is read.
  func yield(_ value: Payload) {
    let (waiter, dropped, started, handedOver, report, passed) = state.withLock {
      state -> (Waiter?, Payload?, Int?, HandedOver<Payload>?, Int?, [@Sendable () -> Void]) in
      guard !state.isFinished else { return (nil, value, nil, nil, nil, []) }
      let (position, handed) = state.arrive()
      let mine = handed ? position : nil
      if let waiter = state.waiter {
        state.waiter = nil
        return (waiter, nil, mine, state.handedOver, state.drops.call(), state.pass())
      }
      switch policy {
      case .unbounded:
        break
      case .bufferingOldest(let limit):
        guard state.count < limit else {
          return (nil, value, mine, state.handedOver, state.drops.drop(), state.pass())
        }
      case .bufferingNewest(let limit):
        guard limit > 0 else {
          return (nil, value, mine, state.handedOver, state.drops.drop(), state.pass())
        }
        if state.count == limit {
          let oldest = state.leavesHanded()
          let dropped = state.removeFirst()
          if let mine { state.handedPositions.append(mine) }
          state.buffer.append(value)
          return (nil, dropped, oldest, state.handedOver, state.drops.drop(), state.pass())
        }
      @unknown default:
        break
      }
      if let mine { state.handedPositions.append(mine) }
      state.buffer.append(value)
      return (nil, nil, nil, nil, nil, [])
    }
    _ = dropped
    if let report { reportDrops(report) }
    for done in passed { done() }
    if let started, let handedOver, !handedOver.start(at: started) {
      // It went back to the hold: the registration has ended, and so has the stream.
      waiter?.resume(returning: nil)
      return
    }
    waiter?.resume(returning: value)
  }

  /// Calls `done` once the consumer has read (or the buffer dropped) every value that arrived
  /// so far; at once when none waits, when the stream's iteration has not started, or when the
  /// calling task is its consumer, whose reading the wait would hold up for ever.
  func afterPassing(_ done: @escaping @Sendable () -> Void) {
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    let waits = state.withLock { state -> Bool in
      guard !state.isFinished || state.count > 0, let consumer = state.consumer,
        consumer != caller, state.passed < state.arrivals
      else { return false }
      state.sends.append((state.arrivals, done))
      return true
    }
    if !waits { done() }
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
    let (waiter, dropped, sends) = state.withLock {
      state -> (Waiter?, ContiguousArray<Payload?>, [(upTo: Int, done: @Sendable () -> Void)]) in
      state.isFinished = true
      defer {
        state.waiter = nil
        state.sends = []
      }
      return (state.waiter, state.drain(), state.sends)
    }
    _ = dropped
    // Nothing more will be read: no send waits for this stream any longer.
    for send in sends { send.done() }
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
    let consumer = withUnsafeCurrentTask { $0?.hashValue }
    // A buffered value is handed out without suspending.
    while let ready = state.withLock({ state -> Taken?? in
      state.consumer = consumer
      return state.takeIfReady()
    }) {
      guard let taken = ready else { return nil }
      if let report = taken.report { reportDrops(report) }
      for done in taken.passed { done() }
      if let value = started(taken) { return value }
    }
    let value = await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: Waiter) in
        while true {
          let ready = state.withLock { state -> Taken?? in
            if let ready = state.takeIfReady() { return ready }
            guard state.waiter == nil else {
              fatalError("Event.values: a stream was read by two tasks at once; use one per task")
            }
            state.waiter = waiter
            return nil
          }
          guard let ready else { return }
          guard let taken = ready else { return waiter.resume(returning: nil) }
          if let report = taken.report { reportDrops(report) }
          for done in taken.passed { done() }
          if let value = started(taken) { return waiter.resume(returning: value) }
        }
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

extension ValueChannel {
  /// The value read, once it counts as started; `nil` when it was handed over and went back
  /// to the hold first (skip it).
  private func started(_ taken: Taken) -> Payload? {
    guard let position = taken.handedPosition else { return taken.value }
    let handedOver = state.withLock { $0.handedOver }
    guard let handedOver, !handedOver.start(at: position) else { return taken.value }
    return nil
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
