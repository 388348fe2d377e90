import EventCore
import EventRAII
import EventTestSupport
import Foundation
import Synchronization
import Testing

private extension Notification.Name {
  static let ping = Notification.Name("EventRAIITests.ping")
  static let pong = Notification.Name("EventRAIITests.pong")
}

/// A sender or observer object for the tests.
private final class Sender: Sendable {}

@Suite("Token-held observation")
struct TokenHeldObservationTests {
  @Test("a synchronous handler runs on the posting thread before post returns")
  func synchronousDeliveryIsInline() {
    let center = NotificationCenter()
    let key = DispatchSpecificKey<Int>()
    let poster = DispatchQueue(label: "poster")
    poster.setSpecific(key: key, value: 7)
    let seen = Recorder<Int?>()
    let token = center.observe(.ping) { _ in seen.record(DispatchQueue.getSpecific(key: key)) }
    let countAfterPost = Recorder<Int>()
    poster.async {
      center.post(name: .ping, object: nil)
      countAfterPost.record(seen.count)
    }
    #expect(drain(poster))
    #expect(countAfterPost.values == [1])
    #expect(seen.values == [7])
    token.cancel()
  }

  @Test("a queue delivery runs on that queue, later, and post does not wait for it")
  func queueDeliveryIsAsynchronous() {
    let center = NotificationCenter()
    let key = DispatchSpecificKey<Int>()
    let target = DispatchQueue(label: "target")
    target.setSpecific(key: key, value: 3)
    let seen = Recorder<Int?>()
    let token = center.observe(.ping, delivery: .queue(target)) { _ in
      seen.record(DispatchQueue.getSpecific(key: key))
    }
    target.suspend()
    // With the target suspended, a post that waited for its delivery would never return.
    #expect(onOtherThread(seconds: 5) { center.post(name: .ping, object: nil) })
    #expect(seen.count == 0)
    target.resume()
    #expect(drain(target))
    #expect(seen.values == [3])
    token.cancel()
  }

  @Test("queue deliveries arrive in post order")
  func queueDeliveryKeepsPostOrder() {
    let center = NotificationCenter()
    let target = DispatchQueue(label: "ordered")
    let seen = Recorder<Int>()
    let token = center.observe(.ping, delivery: .queue(target)) { note in
      seen.record(note.userInfo?["n"] as? Int ?? -1)
    }
    for n in 0..<50 { center.post(name: .ping, object: nil, userInfo: ["n": n]) }
    #expect(drain(target))
    #expect(seen.values == Array(0..<50))
    token.cancel()
  }

  @Test("notifications of other names are not delivered")
  func otherNamesAreIgnored() {
    let center = NotificationCenter()
    let pings = Counter()
    let token = center.observe(.ping) { _ in pings.increment() }
    center.post(name: .pong, object: nil)
    center.post(name: .ping, object: nil)
    center.post(name: .pong, object: nil)
    #expect(pings.count == 1)
    token.cancel()
  }

  @Test("the notification arrives intact: name, object and userInfo")
  func notificationArrivesIntact() throws {
    let center = NotificationCenter()
    let sender = Sender()
    let names = Recorder<Notification.Name>()
    let senders = Recorder<Bool>()
    let payloads = Recorder<String>()
    let token = center.observe(.ping) { note in
      names.record(note.name)
      senders.record((note.object as AnyObject) === sender)
      payloads.record(note.userInfo?["key"] as? String ?? "missing")
    }
    center.post(name: .ping, object: sender, userInfo: ["key": "value"])
    #expect(names.values == [.ping])
    #expect(senders.values == [true])
    #expect(payloads.values == ["value"])
    token.cancel()
  }

  @Test("a nil name observes every notification of the center")
  func nilNameObservesEverything() {
    let center = NotificationCenter()
    let names = Recorder<Notification.Name>()
    let token = center.observe(nil) { note in names.record(note.name) }
    center.post(name: .ping, object: nil)
    center.post(name: .pong, object: Sender())
    #expect(names.values == [.ping, .pong])
    token.cancel()
  }

  @Test("releasing the token stops delivery")
  func releasingTheTokenStops() {
    let center = NotificationCenter()
    let calls = Counter()
    var token: Subscription? = center.observe(.ping) { _ in calls.increment() }
    center.post(name: .ping, object: nil)
    #expect(token != nil)
    token = nil
    center.post(name: .ping, object: nil)
    #expect(calls.count == 1)
  }

  @Test("cancelling the token stops delivery, and cancelling again is harmless")
  func cancellingTheTokenStops() {
    let center = NotificationCenter()
    let calls = Counter()
    let token = center.observe(.ping) { _ in calls.increment() }
    token.cancel()
    token.cancel()
    center.post(name: .ping, object: nil)
    #expect(calls.count == 0)
    #expect(token.isCancelled)
  }

  @Test("reassigning the token variable stops the old handler and starts the new one")
  func reassigningReplacesTheHandler() {
    let center = NotificationCenter()
    let seen = Recorder<String>()
    var token = center.observe(.ping) { _ in seen.record("old") }
    center.post(name: .ping, object: nil)
    token = center.observe(.ping) { _ in seen.record("new") }
    center.post(name: .ping, object: nil)
    #expect(seen.values == ["old", "new"])
    token.cancel()
  }

  @Test("a queued delivery cancelled before it runs never runs")
  func queuedDeliveryCancelledNeverRuns() {
    let center = NotificationCenter()
    let target = DispatchQueue(label: "cancelled")
    let calls = Counter()
    let token = center.observe(.ping, delivery: .queue(target)) { _ in calls.increment() }
    target.suspend()
    center.post(name: .ping, object: nil)
    center.post(name: .ping, object: nil)
    token.cancel()
    target.resume()
    #expect(drain(target))
    #expect(calls.count == 0)
  }

  @Test("observers of one name run in registration order, on every run")
  func registrationOrder() {
    let center = NotificationCenter()
    let order = Recorder<Int>()
    var tokens: [Subscription] = []
    for index in 0..<20 {
      tokens.append(center.observe(.ping) { _ in order.record(index) })
    }
    center.post(name: .ping, object: nil)
    #expect(order.values == Array(0..<20))
    tokens.removeAll()
  }

  @Test("a cancelled observer leaves the others in order, and a new one goes last")
  func orderAfterCancelAndReRegistration() {
    let center = NotificationCenter()
    let order = Recorder<String>()
    let first = center.observe(.ping) { _ in order.record("a") }
    let second = center.observe(.ping) { _ in order.record("b") }
    let third = center.observe(.ping) { _ in order.record("c") }
    first.cancel()
    let again = center.observe(.ping) { _ in order.record("a") }
    center.post(name: .ping, object: nil)
    #expect(order.values == ["b", "c", "a"])
    for token in [second, third, again] { token.cancel() }
  }

  @Test("two centers are independent, and the default center works too")
  func centersAreIndependent() {
    let one = NotificationCenter()
    let two = NotificationCenter()
    let seen = Recorder<String>()
    let first = one.observe(.ping) { _ in seen.record("one") }
    let second = two.observe(.ping) { _ in seen.record("two") }
    let third = NotificationCenter.default.observe(.ping) { _ in seen.record("default") }
    two.post(name: .ping, object: nil)
    NotificationCenter.default.post(name: .ping, object: nil)
    #expect(seen.values == ["two", "default"])
    for token in [first, second, third] { token.cancel() }
  }
}

@Suite("Re-entrancy and released observers")
struct ReentrancyTests {
  @Test("an observer added by a handler gets the next post, not the current one")
  func subscribeDuringPost() {
    let center = NotificationCenter()
    let late = Counter()
    let tokens = SubscriptionBag()
    let added = Counter()
    center.observe(.ping) { _ in
      guard added.increment() == 1 else { return }
      center.observe(.ping) { _ in late.increment() }.store(in: tokens)
    }.store(in: tokens)
    center.post(name: .ping, object: nil)
    #expect(late.count == 0)
    center.post(name: .ping, object: nil)
    #expect(late.count == 1)
    tokens.cancelAll()
  }

  @Test("an observer cancelled by an earlier handler in the same post is skipped")
  func cancelDuringPost() {
    let center = NotificationCenter()
    let seen = Recorder<String>()
    let victim = Mutex<Subscription?>(nil)
    let killer = center.observe(.ping) { _ in
      seen.record("killer")
      victim.withLock { $0 }?.cancel()
    }
    victim.withLock { $0 = center.observe(.ping) { _ in seen.record("victim") } }
    center.post(name: .ping, object: nil)
    #expect(seen.values == ["killer"])
    killer.cancel()
  }

  @Test("a handler may post the same name and cancel itself without deadlock")
  func postAndCancelFromHandler() {
    let center = NotificationCenter()
    let depth = Counter()
    let own = Mutex<Subscription?>(nil)
    own.withLock { slot in
      slot = center.observe(.ping) { _ in
        if depth.increment() < 3 {
          center.post(name: .ping, object: nil)
        } else {
          own.withLock { $0 }?.cancel()
        }
      }
    }
    center.post(name: .ping, object: nil)
    center.post(name: .ping, object: nil)
    #expect(depth.count == 3)
  }

  @Test("an owner released by an earlier handler of the same post is deallocated and skipped")
  func releasedMeansGone() {
    let center = NotificationCenter()
    let holder = Mutex<Sender?>(Sender())
    let weakOwner = Weak(holder.withLock { $0 })
    let goneInFirst = Recorder<Bool>()
    let calls = Counter()
    let first = center.observe(.ping) { _ in
      holder.withLock { $0 = nil }
      goneInFirst.record(weakOwner.object == nil)
    }
    if let owner = holder.withLock({ $0 }) {
      center.observe(.ping, owner: owner) { _, _ in calls.increment() }
    }
    center.post(name: .ping, object: nil)
    #expect(goneInFirst.values == [true])
    #expect(calls.count == 0)
    first.cancel()
  }
}

@Suite("Main actor delivery")
struct MainActorDeliveryTests {
  @MainActor
  @Test("a post on the main actor runs a .mainActor handler inline")
  func inlineOnMainActor() {
    let center = NotificationCenter()
    let seen = Recorder<Bool>()
    let token = center.observe(.ping, delivery: .mainActor) { _ in
      seen.record(MainActorDetection.isOnMainActor)
    }
    center.post(name: .ping, object: nil)
    #expect(seen.values == [true])
    token.cancel()
  }

  @MainActor
  @Test("a post on another thread schedules a .mainActor handler onto the main actor")
  func scheduledFromOtherThread() async {
    let center = NotificationCenter()
    let seen = Recorder<Bool>()
    let token = center.observe(.ping, delivery: .mainActor) { _ in
      seen.record(MainActorDetection.isOnMainActor)
    }
    let countAfterPost = Recorder<Int>()
    #expect(
      onOtherThread {
        center.post(name: .ping, object: nil)
        countAfterPost.record(seen.count)
      })
    #expect(countAfterPost.values == [0])
    await drainMainQueue()
    #expect(seen.values == [true])
    token.cancel()
  }
}
