import EventTestSupport
import Foundation
import Synchronization
import Testing

@testable import EventCore

/// A post parked in a slow handler holds the storage; a removal meanwhile leaves a pending slot.
/// Other posts must keep the lock-free path, and the slot is still cleared once the parked post
/// leaves.
@Suite("ObserverList with a parked post")
struct ParkedPostTests {
  @Test("posts made while a slot waits for a parked post never take the storage down")
  func postsStayLockFree() {
    let list = ObserverList<Int>()
    let parked = ParkedPost()
    let parker = list.subscribe(
      ObserverEntry(delivery: .synchronous, handler: parked.handler), endsWithToken: true)
    var captured: Tracked? = Tracked()
    let released = Weak(captured)
    var other: Subscription? = list.subscribe(
      ObserverEntry(delivery: .synchronous) { [captured] _ in _ = captured }, endsWithToken: true)
    captured = nil
    #expect(parked.start { list.post(1) })
    other?.cancel()
    other = nil
    let before = list.state.withLock { $0.takeDowns }
    for _ in 0..<1_000 { list.post(2) }
    let after = list.state.withLock { $0.takeDowns }
    #expect(after == before, "\(after - before) posts took the storage down")
    #expect(parked.release())
    #expect(released.object == nil, "the parked post's exit cleared the pending slot")
    parker.cancel()
  }

  @Test("a post on another thread while one is parked still cleans up retired storages")
  func retiredStoragesAreReleased() {
    let list = ObserverList<Int>()
    let parked = ParkedPost()
    let parker = list.subscribe(
      ObserverEntry(delivery: .synchronous, handler: parked.handler), endsWithToken: true)
    #expect(parked.start { list.post(1) })
    // Enough inserts to outgrow the storage the parked post holds: it is retired, not freed.
    let tokens = (0..<64).map { _ in
      list.subscribe(ObserverEntry(delivery: .synchronous) { _ in }, endsWithToken: true)
    }
    #expect(list.state.withLock { !$0.retired.isEmpty })
    for _ in 0..<100 { list.post(2) }
    #expect(parked.release())
    list.post(3)
    #expect(list.state.withLock { $0.retired.isEmpty && $0.pending.isEmpty })
    let needsCleanup = list.needsCleanup.load(ordering: .sequentiallyConsistent)
    #expect(!needsCleanup)
    for token in tokens { token.cancel() }
    parker.cancel()
  }
}
