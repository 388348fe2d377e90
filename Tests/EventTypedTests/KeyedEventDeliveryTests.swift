import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// A screen whose methods record whether they ran on the main actor.
@MainActor
private final class KeyScreen {
  private(set) var shown: [String] = []
  private(set) var offMainActor = 0

  func show(_ text: String) {
    if !MainActorDetection.isOnMainActor { offMainActor += 1 }
    shown.append(text)
  }

  func register(on keyed: KeyedEvent<Int, String>, key: Int) {
    keyed[key].register(self) { screen, text in screen.show("closure \(text)") }
  }
}

/// An actor observer that proves each call runs on it.
private actor Tally {
  private(set) var seen: [Int] = []
  let arrived = Signal()

  func record(_ value: Int) {
    assertIsolated()
    seen.append(value)
    arrived.fire()
  }
}

@Suite("KeyedEvent: deliveries and reentrancy per key")
struct KeyedEventDeliveryTests {
  @Test("synchronous: the key's handlers run on the posting thread before post returns")
  func synchronous() throws {
    let keyed = KeyedEvent<Int, Int>()
    let queue = DispatchQueue(label: "poster")
    let marker = DispatchSpecificKey<Int>()
    queue.setSpecific(key: marker, value: 7)
    let onPoster = Recorder<Bool>()
    let token = keyed[1].subscribe { _ in
      onPoster.record(DispatchQueue.getSpecific(key: marker) == 7)
    }
    let returned = Recorder<Int>()
    queue.async {
      keyed.post(1, to: 1)
      returned.record(onPoster.count)
    }
    try #require(drain(queue))
    #expect(onPoster.values == [true])
    #expect(returned.values == [1])
    token.cancel()
  }

  @Test("queue: the key's handlers run on the queue, in post order, after post returns")
  func queue() throws {
    let queue = DispatchQueue(label: "keyed delivery")
    let marker = DispatchSpecificKey<Int>()
    queue.setSpecific(key: marker, value: 9)
    let keyed = KeyedEvent<Int, Int>(delivery: .queue(queue))
    let log = Recorder<String>()
    let observer = Tracked("A")
    keyed[1].register(observer) { observer, value in
      let onQueue = DispatchQueue.getSpecific(key: marker) == 9
      log.record("\(observer.name)\(value) \(onQueue ? "on queue" : "elsewhere")")
    }
    let audit = keyed.all.subscribe { key, value in log.record("all \(key):\(value)") }
    queue.suspend()
    #expect(keyed.post(1, to: 1) == 1)
    #expect(keyed.post(2, to: 1) == 1)
    #expect(keyed.post(3, to: 2) == 0)
    let countWhenPostReturned = log.count
    queue.resume()
    try #require(drain(queue))
    #expect(countWhenPostReturned == 0)
    #expect(log.values == ["A1 on queue", "all 1:1", "A2 on queue", "all 1:2", "all 2:3"])
    audit.cancel()
  }

  @Test("queue: a delivery already queued does not reach a key's handler cancelled since")
  func queuedThenCancelled() throws {
    let queue = DispatchQueue(label: "keyed cancelled")
    let keyed = KeyedEvent<Int, Int>(delivery: .queue(queue))
    let calls = Counter()
    let token = keyed[1].subscribe { _ in calls.increment() }
    queue.suspend()
    keyed.post(1, to: 1)
    token.cancel()
    queue.resume()
    try #require(drain(queue))
    #expect(calls.count == 0)
    #expect(keyed.keyCount == 0)
  }

  @Test("mainActor: inline when posted on the main actor")
  @MainActor
  func mainActorInline() {
    let keyed = KeyedEvent<Int, String>(delivery: .mainActor)
    let onMainActor = Recorder<Bool>()
    let token = keyed[1].subscribe { _ in onMainActor.record(MainActorDetection.isOnMainActor) }
    keyed.post("now", to: 1)
    #expect(onMainActor.values == [true])
    token.cancel()
  }

  @Test("mainActor: from another thread, scheduled onto the main actor")
  @MainActor
  func mainActorScheduled() async throws {
    let keyed = KeyedEvent<Int, String>(delivery: .mainActor)
    let onMainActor = Recorder<Bool>()
    let token = keyed[1].subscribe { _ in onMainActor.record(MainActorDetection.isOnMainActor) }
    let countWhenPostReturned = Recorder<Int>()
    // This test holds the main actor while the other thread posts, so the delivery can only
    // have been scheduled when post returns.
    try #require(
      onOtherThread {
        keyed.post("later", to: 1)
        countWhenPostReturned.record(onMainActor.count)
      })
    await drainMainQueue()
    #expect(countWhenPostReturned.values == [0])
    #expect(onMainActor.values == [true])
    token.cancel()
  }

  @Test("a @MainActor method and closure on a key run on the main actor whoever posts")
  @MainActor
  func mainActorMethods() async throws {
    let keyed = KeyedEvent<Int, String>()
    let screen = KeyScreen()
    keyed[1].register(screen, function: KeyScreen.show)
    screen.register(on: keyed, key: 2)
    try #require(
      onOtherThread {
        keyed.post("a", to: 1)
        keyed.post("b", to: 2)
        keyed.post("c", to: 3)
      })
    #expect(screen.shown.isEmpty, "scheduled, not run on the posting thread")
    await drainMainQueue()
    #expect(screen.shown == ["a", "closure b"])
    #expect(screen.offMainActor == 0)
  }

  @Test("a @MainActor method registered with await from nonisolated code runs on the main actor")
  func mainActorMethodFromNonisolated() async throws {
    let keyed = KeyedEvent<Int, String>()
    let screen = KeyScreen()
    await keyed[5].register(screen, function: KeyScreen.show)
    try #require(onOtherThread { keyed.post("x", to: 5) })
    await drainMainQueue()
    #expect(await screen.shown == ["x"])
    #expect(await screen.offMainActor == 0)
  }

  @Test("an actor on a key receives that key's posts on the actor, in post order")
  func actorDelivery() async {
    let keyed = KeyedEvent<Int, Int>()
    let tally = Tally()
    let elsewhere = Tally()
    keyed[1].register(tally) { me, value in me.record(value) }
    keyed[2].register(elsewhere) { me, value in me.record(value) }
    #expect(onOtherThread { for value in 0..<50 { keyed.post(value, to: 1) } })
    for value in 50..<100 { keyed.post(value, to: 1) }
    await keyed[1].flush()
    #expect(await tally.seen == Array(0..<100))
    #expect(await elsewhere.seen.isEmpty)
  }

  @Test(
    "reentrancy across keys: .queued delivers a handler's post to another key after the outer post",
    arguments: [Reentrancy.queued, .immediate])
  func reentrancyAcrossKeys(_ reentrancy: Reentrancy) {
    let keyed = KeyedEvent<Int, Int>(reentrancy: reentrancy)
    #expect(keyed.reentrancy == reentrancy)
    let log = Recorder<String>()
    let tokens = [
      keyed[1].subscribe { value in
        log.record("1a:\(value)")
        guard value == 1 else { return }
        log.record("posted to 2, reached \(keyed.post(10, to: 2))")
        log.record("posted to 1, reached \(keyed[1].post(2))")
      },
      keyed[1].subscribe { log.record("1b:\($0)") },
      keyed[2].subscribe { log.record("2:\($0)") },
    ]
    let audit = keyed.all.subscribe { key, value in log.record("all \(key):\(value)") }
    #expect(keyed.post(1, to: 1) == 2)
    if reentrancy == .queued {
      #expect(
        log.values == [
          "1a:1", "posted to 2, reached 1", "posted to 1, reached 2", "1b:1", "all 1:1",
          "2:10", "all 2:10", "1a:2", "1b:2", "all 1:2",
        ])
    } else {
      #expect(
        log.values == [
          "1a:1", "2:10", "all 2:10", "posted to 2, reached 1", "1a:2", "1b:2", "all 1:2",
          "posted to 1, reached 2", "1b:1", "all 1:1",
        ])
    }
    tokens.forEach { $0.cancel() }
    audit.cancel()
  }

  @Test(".queued applies per thread: a post on another thread during a post is not held")
  func queuedIsPerThread() throws {
    let keyed = KeyedEvent<Int, Int>(reentrancy: .queued)
    let log = Recorder<String>()
    let tokens = [
      keyed[1].subscribe { _ in
        log.record("1 start")
        _ = onOtherThread { keyed.post(0, to: 2) }
        log.record("1 end")
      },
      keyed[2].subscribe { _ in log.record("2") },
    ]
    keyed.post(1, to: 1)
    #expect(log.values == ["1 start", "2", "1 end"])
    tokens.forEach { $0.cancel() }
  }
}
