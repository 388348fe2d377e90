import EventTestSupport
import EventTyped
import Testing

/// Async handlers and `values` streams buffer what an `.untilObserved` event hands them; a held
/// payload counts as handed over only when the handler starts on it or the consumer reads it,
/// so what is still buffered when they end goes back to the hold.
@Suite("untilObserved hand-over to async handlers and values")
struct UntilObservedBufferedHandOverTests {
  /// An event holding 1, 2, 3.
  private static func holding() -> Event<Int> {
    let event = Event<Int>(replay: .untilObserved)
    for value in 1...3 { event.post(value) }
    return event
  }

  /// What a synchronous registration made now receives of what is held.
  private static func handedOver(_ event: Event<Int>) -> [Int] {
    let next = Recorder<Int>()
    let token = event.subscribe { next.record($0) }
    token.cancel()
    return next.values
  }

  // On the main actor, so the handler (isolated to it too) cannot start before the cancel: from
  // a nonisolated test its task could start on a free thread first and, correctly, take the
  // posts (the test failed that way under load).
  @Test("an async handler cancelled before it starts leaves the posts held")
  @MainActor func asyncHandlerCancelledAtOnce() {
    let event = Self.holding()
    let token = event.subscribe { (_: Int) async in }
    token.cancel()
    #expect(Self.handedOver(event) == [1, 2, 3])
  }

  @Test("an async handler cancelled by its first call gives back the rest, in order")
  func asyncHandlerCancelledAfterOne() async {
    let event = Self.holding()
    let seen = Recorder<Int>()
    let done = Signal()
    let token = Lock<Subscription?>(nil)
    token.withLock { slot in
      slot = event.subscribe { (value: Int) async in
        seen.record(value)
        token.withLock { $0?.cancel() }
        done.fire()
      }
    }
    #expect(await done.arrival())
    await event.flush()
    #expect(seen.values == [1])
    #expect(Self.handedOver(event) == [2, 3])
  }

  @Test("a values stream released unread leaves the posts held")
  func valuesReleasedUnread() {
    let event = Self.holding()
    do {
      let stream = event.values
      _ = stream
    }
    #expect(Self.handedOver(event) == [1, 2, 3])
  }

  @Test("a values stream read once, then released, gives back the rest")
  func valuesReadOnce() async {
    let event = Self.holding()
    do {
      var iterator = event.values.makeAsyncIterator()
      #expect(await iterator.next() == 1)
    }
    #expect(Self.handedOver(event) == [2, 3])
  }

  @Test("a bounded values stream counts what its policy drops as handed over")
  func boundedValuesDrop() async {
    let event = Self.holding()
    do {
      var iterator = event.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
      #expect(await iterator.next() == 3)
    }
    #expect(Self.handedOver(event).isEmpty)
    let again = Self.holding()
    do {
      let stream = again.values(bufferingPolicy: .bufferingOldest(2))
      _ = stream
    }
    #expect(Self.handedOver(again) == [1, 2], "3 was dropped by the policy; 1 and 2 never read")
  }

  @Test("a values stream read to the end hands everything over, then gets live posts")
  func valuesReadThrough() async {
    let event = Self.holding()
    let stream = event.values
    var iterator = stream.makeAsyncIterator()
    for expected in 1...3 { #expect(await iterator.next() == expected) }
    event.post(4)
    #expect(await iterator.next() == 4)
    #expect(event.retained.isEmpty)
  }
}
