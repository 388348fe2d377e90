import EventTestSupport
import EventTyped
import Synchronization
import Testing

@Suite("EventTyped Stress")
struct EventStressTests {
  @Test("posters and registrars run together without loss, corruption or deadlock")
  func postersAndRegistrars() {
    let event = Event<Int>()
    let stableCalls = Counter()
    let stable = Tracked("stable")
    event.register(stable) { _, _ in stableCalls.increment() }
    let postsPerPoster = 2_000
    let posters = 2

    DispatchQueue.concurrentPerform(iterations: 6) { worker in
      if worker < posters {
        for value in 0..<postsPerPoster { event.post(value) }
        return
      }
      for round in 0..<300 {
        let observer = Tracked()
        event.register(observer) { _, _ in }
        let token = event.subscribe { _ in }
        event.register(Metrics.self) { (_: Int) in }
        if round.isMultiple(of: 2) {
          event.unregister(observer)
          event.unregister(Metrics.self)
        }
        token.cancel()
      }
    }

    #expect(stableCalls.count == posters * postsPerPoster)
    // Only `stable` and the type registration left by the last round may remain.
    #expect((1...2).contains(event.observerCount))
    event.unregister(Metrics.self)
    #expect(event.observerCount == 1)
  }

  @Test("a cancelled subscription is not invoked by posts that start after cancel returns")
  func cancelIsFinal() {
    let event = Event<Int>()
    let lateCalls = Counter()
    // Cancels returned so far. Each post carries the count it read before it began, so a
    // payload at or past a subscription's own number is a post that began after its cancel
    // returned (a post that began earlier may still reach it: cancel does not wait).
    let cancelsReturned = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<500 {
        let cancelledAt = Atomic<Int>(.max)
        let token = event.subscribe { begunAt in
          if begunAt >= cancelledAt.load(ordering: .acquiring) { lateCalls.increment() }
        }
        event.post(cancelsReturned.load(ordering: .acquiring))
        token.cancel()
        let number = cancelsReturned.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        cancelledAt.store(number, ordering: .releasing)
        event.post(number)
      }
    }
    #expect(lateCalls.count == 0)
    #expect(event.observerCount == 0)
  }

  @Test("posts through a gate toggled by other threads arrive once each, in post order")
  func gateUnderContention() throws {
    let gate = Gate()
    let event = Event<(Int, Int)>()
    let received = Mutex<[Int: [Int]]>([:])
    let token = event.subscribe { poster, sequence in
      received.withLock { $0[poster, default: []].append(sequence) }
    }
    let posters = 3
    let postsPerPoster = 1_000

    DispatchQueue.concurrentPerform(iterations: posters + 1) { worker in
      if worker == posters {
        for _ in 0..<500 {
          gate.open()
          gate.close()
        }
        return
      }
      for sequence in 0..<postsPerPoster { event.post(worker, sequence, when: gate) }
    }
    gate.open()

    let byPoster = received.withLock { $0 }
    for poster in 0..<posters {
      #expect(byPoster[poster] == Array(0..<postsPerPoster))
    }
    token.cancel()
  }

  @Test("streams created and ended while others post stay consistent")
  func streamsUnderContention() async {
    let event = Event<Int>()
    let stream = event.values
    let posts = 1_000
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 0..<posts { event.post(value) }
      }
      for _ in 0..<2 {
        group.addTask {
          for _ in 0..<200 {
            let transient = event.values
            _ = transient
          }
        }
      }
    }
    let received = await stream.prefix(posts).collect()
    #expect(received == Array(0..<posts))
    #expect(event.observerCount == 1)
  }
}
