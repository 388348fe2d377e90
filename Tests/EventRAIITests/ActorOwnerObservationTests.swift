import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let actorOwned = Notification.Name("EventRAIITests.actorOwned")
}

/// An actor that observes as its own owner: `observe(name, owner: self) { me, note in ... }`.
private actor Cache {
  private(set) var purges: [Int] = []
  private let expected: Int
  let done = Signal()

  init(expecting expected: Int = 1) {
    self.expected = expected
  }

  func start(_ center: NotificationCenter) -> Subscription {
    center.observe(.actorOwned, owner: self) { me, note in
      me.purge(note.userInfo?["n"] as? Int ?? -1)
    }
  }

  func purge(_ number: Int) {
    // Proves the call runs on this actor: the check stops the program otherwise.
    assertIsolated()
    purges.append(number)
    if purges.count == expected { done.fire() }
  }
}

@Suite("NotificationCenter: an actor as owner")
struct ActorOwnerObservationTests {
  @Test("the handler runs on the actor with each notification, in post order")
  func runsOnTheActorInOrder() async {
    let center = NotificationCenter()
    let cache = Cache(expecting: 50)
    _ = await cache.start(center)
    #expect(
      onOtherThread {
        for number in 0..<50 {
          center.post(name: .actorOwned, object: nil, userInfo: ["n": number])
        }
      })
    #expect(await cache.done.arrival())
    #expect(await cache.purges == Array(0..<50))
  }

  @Test(
    "an actor observing as its own owner is deallocated once released, and the observation ends",
    .disabled(
      "needs issue-20core: Delivery holding the actor weakly (guarantee 11); remove on merge")
  )
  func heldWeakly() async {
    let center = NotificationCenter()
    var cache: Cache? = Cache()
    let released = Weak(cache)
    let token = await cache?.start(center)
    center.post(name: .actorOwned, object: nil, userInfo: ["n": 1])
    #expect(await cache?.done.arrival() == true)
    cache = nil
    // The drain that ran the handler may still hold the actor for a moment after it returns.
    #expect(await released.isReleased(), "the observation kept the actor alive")
    center.post(name: .actorOwned, object: nil, userInfo: ["n": 2])
    #expect(token?.isCancelled == true)
  }
}
