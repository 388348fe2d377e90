import EventTestSupport
import Foundation
import Synchronization
import Testing

@testable import EventRAII

private extension Notification.Name {
  static let pinned = Notification.Name("EventRAIITests.stress.pinned")
  static let churned = Notification.Name("EventRAIITests.stress.churned")
  static let raced = Notification.Name("EventRAIITests.stress.raced")
  static let filtered = Notification.Name("EventRAIITests.stress.filtered")
}

/// A sender for the filtered stress test.
private final class Sender: Sendable {}

/// A global order of events across threads: each tick is later than every tick that returned
/// before it started.
private final class Clock: Sendable {
  private let value = Atomic<Int>(0)

  func tick() -> Int {
    value.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
  }
}

/// The tick taken right after one token's `cancel()` returned; 0 while it is live.
private final class CancelMark: Sendable {
  private let tick = Atomic<Int>(0)

  func mark(_ value: Int) { tick.store(value, ordering: .sequentiallyConsistent) }
  var value: Int { tick.load(ordering: .sequentiallyConsistent) }
}

/// Runs `body(worker)` on `count` threads of their own, released together once all have
/// started, and waits for all of them, bounded.
private func concurrently(
  _ count: Int, seconds: Double = 60, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
  let group = DispatchGroup()
  let ready = Counter()
  let deadline = DispatchTime.now() + seconds
  for worker in 0..<count {
    group.enter()
    let thread = Thread {
      ready.increment()
      while ready.count < count && DispatchTime.now() < deadline {}
      body(worker)
      group.leave()
    }
    thread.start()
  }
  return group.wait(timeout: deadline) == .success
}

@Suite("EventRAII Stress")
struct NotificationCenterStressTests {
  @Test(
    "posts on several threads while tokens are created and released: no post lost, none after cancel"
  )
  func postWhileChurning() {
    let center = NotificationCenter()
    let clock = Clock()
    let violations = Counter()
    let pinnedCalls = Counter()
    let postersDone = Counter()
    let posters = 3
    let postsPerPoster = 1_000
    let queues = [DispatchQueue(label: "stress.a"), DispatchQueue(label: "stress.b")]
    let pinned = center.observe(.pinned) { _ in pinnedCalls.increment() }

    let finished = concurrently(posters + 2) { worker in
      if worker < posters {
        for index in 0..<postsPerPoster {
          let name: Notification.Name = index.isMultiple(of: 2) ? .pinned : .churned
          center.post(name: name, object: nil, userInfo: ["tick": clock.tick()])
        }
        postersDone.increment()
        return
      }
      var round = 0
      while (postersDone.count < posters || round < 500) && round < 100_000 {
        round += 1
        let cancelled = CancelMark()
        let delivery: Delivery = round.isMultiple(of: 3) ? .queue(queues[worker % 2]) : .synchronous
        let name: Notification.Name = round.isMultiple(of: 2) ? .pinned : .churned
        let token = center.observe(name, delivery: delivery) { note in
          let posted = note.userInfo?["tick"] as? Int ?? 0
          let cancelledAt = cancelled.value
          // A post that began after cancel() returned must not reach the handler.
          if cancelledAt != 0 && posted > cancelledAt { violations.increment() }
        }
        token.cancel()
        cancelled.mark(clock.tick())
      }
    }
    #expect(finished)
    for queue in queues { #expect(drain(queue)) }
    #expect(violations.count == 0)
    #expect(pinnedCalls.count == posters * postsPerPoster / 2)
    pinned.cancel()
    #expect(!ChannelRegistry.shared.hasChannel(center: center, name: .pinned))
    #expect(!ChannelRegistry.shared.hasChannel(center: center, name: .churned))
  }

  @Test("a subscription racing with the last cancel of its name is always registered")
  func subscribeRacesLastCancel() {
    let center = NotificationCenter()
    let missed = Counter()
    let finished = concurrently(4) { _ in
      for _ in 0..<500 {
        let calls = Counter()
        let token = center.observe(.raced) { _ in calls.increment() }
        center.post(name: .raced, object: nil)
        // Other threads' posts may add to it; the own post must have arrived.
        if calls.count == 0 { missed.increment() }
        token.cancel()
      }
    }
    #expect(finished)
    #expect(missed.count == 0)
    #expect(!ChannelRegistry.shared.hasChannel(center: center, name: .raced))
    let calls = Counter()
    let token = center.observe(.raced) { _ in calls.increment() }
    center.post(name: .raced, object: nil)
    #expect(calls.count == 1)
    token.cancel()
  }

  @Test("owners dying on other threads while posts run are never called after death")
  func ownersDieDuringPosts() {
    let center = NotificationCenter()
    let clock = Clock()
    let violations = Counter()
    let postersDone = Counter()
    let finished = concurrently(3) { worker in
      if worker == 0 {
        for _ in 0..<1_000 {
          center.post(name: .churned, object: nil, userInfo: ["tick": clock.tick()])
        }
        postersDone.increment()
        return
      }
      var round = 0
      while (postersDone.count < 1 || round < 500) && round < 100_000 {
        round += 1
        let died = CancelMark()
        do {
          let owner = Tracked("owner") { died.mark(clock.tick()) }
          center.observe(.churned, owner: owner) { _, note in
            let posted = note.userInfo?["tick"] as? Int ?? 0
            let diedAt = died.value
            if diedAt != 0 && posted > diedAt { violations.increment() }
          }
        }
      }
    }
    #expect(finished)
    #expect(violations.count == 0)
    // The purge of the dead owners' registrations ends the channel.
    center.post(name: .churned, object: nil)
    #expect(!ChannelRegistry.shared.hasChannel(center: center, name: .churned))
  }

  @Test("posts reach exactly their sender's observers while observations and senders come and go")
  func filteredPostsWhileSendersChurn() {
    let center = NotificationCenter()
    let senders = (0..<4).map { _ in Sender() }
    let pinnedCalls = (0..<4).map { _ in Counter() }
    let strays = Counter()
    let mortalPosts = Counter()
    let mortalCalls = Counter()
    let pinned = senders.indices.map { index in
      center.observe(.filtered, object: senders[index]) { note in
        if note.object as AnyObject? === senders[index] {
          pinnedCalls[index].increment()
        } else {
          strays.increment()
        }
      }
    }
    let everySender = Counter()
    let unfiltered = center.observe(.filtered) { _ in everySender.increment() }
    let postsPerPoster = 2_000
    let postersDone = Counter()
    let finished = concurrently(4) { worker in
      if worker < 2 {
        for index in 0..<postsPerPoster {
          center.post(name: .filtered, object: senders[(index + worker) % senders.count])
        }
        postersDone.increment()
        return
      }
      var round = 0
      while postersDone.count < 2 && round < 100_000 {
        round += 1
        if worker == 2 {
          // Observations of a live sender, joining and leaving its group.
          center.observe(.filtered, object: senders[round % senders.count]) { _ in }.cancel()
        } else {
          // Senders that die with their observations live: their groups match nothing and are
          // replaced when a new object at the same address observes.
          let mortal = Sender()
          let token = center.observe(.filtered, object: mortal) { _ in mortalCalls.increment() }
          center.post(name: .filtered, object: mortal)
          mortalPosts.increment()
          withExtendedLifetime(token) {}
        }
      }
    }
    #expect(finished)
    // Each poster posted postsPerPoster / 4 times from each sender.
    for calls in pinnedCalls { #expect(calls.count == postsPerPoster / 2) }
    #expect(everySender.count >= 2 * postsPerPoster)
    #expect(strays.count == 0)
    #expect(mortalCalls.count == mortalPosts.count)
    withExtendedLifetime((pinned, unfiltered)) {}
  }
}
