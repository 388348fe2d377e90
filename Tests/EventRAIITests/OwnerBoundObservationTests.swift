import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let owned = Notification.Name("EventRAIITests.owned")
}

/// An owner that counts what its handlers saw.
private final class Owner: Sendable {
  private let log = Recorder<String>()
  var seen: [String] { log.values }
  func saw(_ entry: String) { log.record(entry) }
}

@Suite("Owner-bound observation")
struct OwnerBoundObservationTests {
  @Test("the handler gets the owner and the notification, with no token kept")
  func deliversToOwner() {
    let center = NotificationCenter()
    let owner = Owner()
    center.observe(.owned, owner: owner) { owner, note in owner.saw(note.name.rawValue) }
    center.post(name: .owned, object: nil)
    #expect(owner.seen == ["EventRAIITests.owned"])
  }

  @Test("owners that observed and died do not pile up on a name never posted")
  func deadOwnersDoNotPileUp() {
    let center = NotificationCenter()
    let freed = Counter()
    for _ in 0..<10_000 {
      let captured = Tracked("captured") { freed.increment() }
      center.observe(.owned, owner: Owner()) { _, _ in withExtendedLifetime(captured) {} }
    }
    // Inserts purge once the list grew by half; on Linux the owner sweep runs on a later bind.
    #expect(10_000 - freed.count <= 64, "dead observations kept what their handlers captured")
  }

  @Test("the owner is not retained, and its death stops delivery")
  func ownerDeathStopsDelivery() {
    let center = NotificationCenter()
    let calls = Counter()
    var owner: Owner? = Owner()
    let weakOwner = Weak(owner)
    if let owner {
      center.observe(.owned, owner: owner) { _, _ in calls.increment() }
    }
    center.post(name: .owned, object: nil)
    owner = nil
    #expect(weakOwner.object == nil)
    center.post(name: .owned, object: nil)
    #expect(calls.count == 1)
  }

  @Test("after the owner dies the registration and what its handler captured are released")
  func ownerDeathReleasesTheRegistration() {
    let center = NotificationCenter()
    var owner: Owner? = Owner()
    var captured: Tracked? = Tracked("captured")
    let weakCaptured = Weak(captured)
    if let owner, let captured {
      center.observe(.owned, owner: owner) { _, _ in _ = captured.name }
    }
    captured = nil
    #expect(weakCaptured.object != nil)
    owner = nil
    // On Apple platforms the registration goes with the owner; on Linux the next post purges it.
    center.post(name: .owned, object: nil)
    #expect(weakCaptured.object == nil)
  }

  @Test("several observations on one owner each deliver once")
  func severalOnOneOwner() {
    let center = NotificationCenter()
    let owner = Owner()
    center.observe(.owned, owner: owner) { owner, _ in owner.saw("first") }
    center.observe(.owned, owner: owner) { owner, _ in owner.saw("second") }
    center.observe(.owned, owner: owner) { owner, _ in owner.saw("third") }
    center.post(name: .owned, object: nil)
    #expect(owner.seen == ["first", "second", "third"])
  }

  @Test("the returned token still cancels the observation")
  func tokenCancels() {
    let center = NotificationCenter()
    let owner = Owner()
    let token = center.observe(.owned, owner: owner) { owner, _ in owner.saw("call") }
    center.post(name: .owned, object: nil)
    token.cancel()
    center.post(name: .owned, object: nil)
    #expect(owner.seen == ["call"])
    #expect(token.isCancelled)
  }

  @Test("dropping the returned token does not end the observation")
  func droppedTokenKeepsObserving() {
    let center = NotificationCenter()
    let owner = Owner()
    do {
      let token = center.observe(.owned, owner: owner) { owner, _ in owner.saw("call") }
      _ = token
    }
    center.post(name: .owned, object: nil)
    center.post(name: .owned, object: nil)
    #expect(owner.seen == ["call", "call"])
  }

  @Test("the token reports cancelled once the owner is gone")
  func tokenReportsOwnerDeath() {
    let center = NotificationCenter()
    var owner: Owner? = Owner()
    let token = owner.map { center.observe(.owned, owner: $0) { _, _ in } }
    #expect(token?.isCancelled == false)
    owner = nil
    #expect(token?.isCancelled == true)
  }
}
