import EventTestSupport
import EventTyped
import Foundation
import Testing

/// An observer with nothing to it.
private final class Document: Sendable {}

/// An actor observer.
private actor Session {
  func record(_ value: Int) {}
}

@Suite("KeyedEvent: a key lives as long as its registrations")
struct KeyedEventLifetimeTests {
  @Test("a key is made by its first registration and removed when its last is cancelled")
  func cancelRemovesKey() {
    let keyed = KeyedEvent<Int, Int>()
    let first = keyed[1].subscribe { _ in }
    let second = keyed[1].subscribe { _ in }
    let other = keyed[2].subscribe { _ in }
    #expect(keyed.keyCount == 2)
    first.cancel()
    #expect(keyed.keyCount == 2, "key 1 still has a registration")
    second.cancel()
    #expect(keyed.keyCount == 1)
    other.cancel()
    #expect(keyed.keyCount == 0)
  }

  @Test("a subscription's token released ends it and removes its key")
  func tokenReleaseRemovesKey() {
    let keyed = KeyedEvent<Int, Int>()
    let calls = Counter()
    do {
      let token = keyed[1].subscribe { _ in calls.increment() }
      #expect(keyed.keyCount == 1)
      _ = token
    }
    #expect(keyed.keyCount == 0)
    #expect(keyed.post(1, to: 1) == 0)
    #expect(calls.count == 0)
  }

  @Test("an observer's death is noticed by a post to its key, which removes the key")
  func deadObserverNoticedByPost() {
    let keyed = KeyedEvent<Int, Int>()
    let calls = Counter()
    var document: Document? = Document()
    let released = Weak(document)
    keyed[1].register(document!) { _, _ in calls.increment() }
    document = nil
    #expect(released.object == nil, "the registration did not keep its observer alive")
    #expect(keyed.keyCount == 1, "unseen until a post, a count or a sweep")
    #expect(keyed.post(1, to: 1) == 0)
    #expect(calls.count == 0)
    #expect(keyed.keyCount == 0)
  }

  @Test("an observer's death is noticed by its key's observerCount, which removes the key")
  func deadObserverNoticedByCount() {
    let keyed = KeyedEvent<Int, Int>()
    do {
      let document = Document()
      keyed[1].register(document) { _, _ in }
      keyed[2].register(document) { _, _ in }
    }
    #expect(keyed[1].observerCount == 0)
    #expect(keyed.keyCount == 1)
    #expect(keyed[2].observerCount == 0)
    #expect(keyed.keyCount == 0)
  }

  @Test("an actor's death ends its registration and removes its key")
  func actorDeathRemovesKey() async {
    let keyed = KeyedEvent<Int, Int>()
    var session: Session? = Session()
    let released = Weak(session)
    keyed[1].register(session!) { me, value in me.record(value) }
    keyed.post(1, to: 1)
    await keyed[1].flush()
    session = nil
    #expect(await released.isReleased(), "the registration kept the actor alive")
    keyed.post(2, to: 1)
    #expect(await holdsSoon { keyed[1].observerCount == 0 && keyed.keyCount == 0 })
  }

  @Test("a handler's captures are released when its registration ends")
  func capturesReleased() {
    let keyed = KeyedEvent<Int, Int>()
    var captured: Tracked? = Tracked("captured")
    let released = Weak(captured)
    let token = keyed[1].subscribe { [captured] _ in withExtendedLifetime(captured) {} }
    captured = nil
    #expect(released.object != nil)
    token.cancel()
    #expect(released.object == nil)
  }

  @Test("keys whose observers died unseen are swept as keys are made: nothing piles up")
  func deadKeysAreSwept() {
    let keyed = KeyedEvent<Int, Int>()
    let freed = Counter()
    let live = (0..<100).map { _ in Document() }
    for (key, document) in live.enumerated() { keyed[-key - 1].register(document) { _, _ in } }
    var highest = 0
    for key in 0..<20_000 {
      let captured = Tracked("captured") { freed.increment() }
      keyed[key].register(Document()) { _, _ in withExtendedLifetime(captured) {} }
      highest = max(highest, keyed.keyCount)
    }
    // A sweep runs when the keys double since the last one: at most twice the live keys,
    // or the 64 a sweep starts at.
    #expect(highest <= max(64, 2 * (live.count + 1)), "dead keys piled up: \(highest)")
    #expect(20_000 - freed.count <= highest, "dead keys kept what their handlers captured")
    #expect(live.indices.allSatisfy { keyed[-$0 - 1].observerCount == 1 }, "live keys stay")
  }

  @Test("a stored channel keeps working after its key was removed and made again")
  func storedChannel() {
    let keyed = KeyedEvent<Int, Int>()
    let channel = keyed[1]
    let log = Recorder<Int>()
    channel.subscribe { log.record($0) }.cancel()
    #expect(keyed.keyCount == 0)
    let token = channel.subscribe { log.record($0) }
    #expect(channel.post(2) == 1)
    #expect(log.values == [2])
    token.cancel()
  }

  @Test("releasing the keyed event ends every key's registrations and releases their handlers")
  func releasingEndsRegistrations() async {
    let observer = Document()
    var keyed: KeyedEvent<Int, Int>? = KeyedEvent()
    let releasedKeyed = Weak(keyed)
    var captured: Tracked? = Tracked("captured")
    let releasedCapture = Weak(captured)
    let tokens = [
      keyed!.subscribe(key: 1, capturing: captured!),
      keyed![2].register(observer) { _, _ in },
      keyed![3].register(Metrics.self) { (_: Int) in },
      keyed![4].subscribeOnce { _ in },
    ]
    let stream = keyed![5].values
    captured = nil
    #expect(tokens.allSatisfy { !$0.isCancelled })
    keyed = nil
    #expect(releasedKeyed.object == nil, "registrations kept the keyed event alive")
    #expect(tokens.allSatisfy { $0.isCancelled })
    #expect(releasedCapture.object == nil, "a handler outlived its keyed event")
    #expect(await finishes { for await _ in stream {} }, "the stream ended with its key")
    withExtendedLifetime(observer) {}
  }

  @Test("a channel holds its keyed event")
  func channelHoldsKeyedEvent() {
    var keyed: KeyedEvent<Int, Int>? = KeyedEvent()
    let released = Weak(keyed)
    let channel = keyed![1]
    keyed = nil
    #expect(released.object != nil)
    #expect(channel.post(1) == 0)
  }
}

extension KeyedEvent where Key == Int, Payload == Int {
  /// A subscription on `key` whose handler captures `object`.
  fileprivate func subscribe(key: Int, capturing object: Tracked) -> Subscription {
    self[key].subscribe { _ in withExtendedLifetime(object) {} }
  }
}

@Suite("KeyedEvent: a channel's onObservedChange")
struct KeyedEventObservedChangeTests {
  @Test("creates no key, and reports the first registration and the last end")
  func reportsChanges() async {
    let keyed = KeyedEvent<Int, Int>()
    let changes = Recorder<Bool>()
    let watch = keyed[1].onObservedChange { changes.record($0) }
    #expect(keyed.keyCount == 0)
    #expect(changes.values.isEmpty, "not called when installed")
    let first = keyed[1].subscribe { _ in }
    let second = keyed[1].subscribe { _ in }
    let other = keyed[2].subscribe { _ in }
    #expect(changes.values == [true])
    first.cancel()
    other.cancel()
    #expect(changes.values == [true])
    second.cancel()
    #expect(changes.values == [true, false])
    #expect(keyed.keyCount == 0)
    watch.cancel()
  }

  @Test("keeps working after its key is removed and made again, by any form")
  func survivesKeyRemoval() async throws {
    let keyed = KeyedEvent<Int, Int>()
    let changes = Recorder<Bool>()
    let watch = keyed[1].onObservedChange { changes.record($0) }
    keyed[1].subscribe { _ in }.cancel()
    let document = Document()
    keyed[1].register(document) { _, _ in }
    keyed[1].unregister(document)
    let reply = try await keyed[1].next(timeout: .seconds(10)) { keyed.post(4, to: 1) }
    #expect(reply == 4)
    #expect(changes.values == [true, false, true, false, true, false])
    #expect(keyed.keyCount == 0)
    watch.cancel()
  }

  @Test("installed while its key is observed, it hears the end")
  func installedWhileObserved() {
    let keyed = KeyedEvent<Int, Int>()
    let token = keyed[1].subscribe { _ in }
    let changes = Recorder<Bool>()
    let watch = keyed[1].onObservedChange { changes.record($0) }
    #expect(changes.values.isEmpty)
    token.cancel()
    #expect(changes.values == [false])
    let again = keyed[1].subscribe { _ in }
    #expect(changes.values == [false, true])
    again.cancel()
    watch.cancel()
  }

  @Test("is not called once cancelled, while the key exists or after")
  func notCalledAfterCancel() {
    let keyed = KeyedEvent<Int, Int>()
    let changes = Recorder<Bool>()
    let kept = Recorder<Bool>()
    let watch = keyed[1].onObservedChange { changes.record($0) }
    let other = keyed[1].onObservedChange { kept.record($0) }
    let token = keyed[1].subscribe { _ in }
    watch.cancel()
    #expect(watch.isCancelled)
    token.cancel()
    keyed[1].subscribe { _ in }.cancel()
    #expect(changes.values == [true])
    #expect(kept.values == [true, false, true, false])
    other.cancel()
    keyed[1].subscribe { _ in }.cancel()
    #expect(kept.values == [true, false, true, false])
    #expect(keyed.keyCount == 0)
  }
}
