import Dispatch
import EventBroadcast
import EventTestSupport
import Foundation
import Testing

private protocol Tick {
  func tick()
}

private final class Ticker: Tick, Sendable {
  let calls = Counter()

  func tick() {
    calls.increment()
  }
}

@Suite("Broadcaster Stress")
struct BroadcasterStressTests {
  @Test("1,000 work items on the global queue, each registering and notifying, finish in 10 s")
  func progressOnTheGlobalQueue() {
    let hub = Broadcaster()
    let group = DispatchGroup()
    let reachedOwnObserverOnce = Counter()
    for _ in 0..<1_000 {
      DispatchQueue.global().async(group: group) {
        let observer = Ticker()
        hub.register((any Tick).self, observer: observer)
        let ownCalls = Counter()
        hub.notify((any Tick).self) { ticker in
          if (ticker as AnyObject) === observer { ownCalls.increment() }
          ticker.tick()
        }
        if ownCalls.count == 1 { reachedOwnObserverOnce.increment() }
      }
    }

    #expect(group.wait(timeout: .now() + 10) == .success)
    #expect(reachedOwnObserverOnce.count == 1_000)
    #expect(hub.observerCount((any Tick).self) == 0)
  }

  @Test("notifiers and registrars on many threads at once keep every count exact")
  func notifiersAndRegistrarsTogether() {
    let hub = Broadcaster()
    let stable = Ticker()
    hub.register((any Tick).self, observer: stable)
    let notifications = Counter()
    let group = DispatchGroup()
    let rounds = 1_000

    for _ in 0..<3 {
      group.onNewThread {
        for _ in 0..<rounds {
          hub.notify((any Tick).self) { $0.tick() }
          notifications.increment()
        }
      }
    }
    for worker in 0..<3 {
      group.onNewThread {
        for round in 0..<rounds {
          let observer = Ticker()
          let token = hub.register((any Tick).self, observer: observer)
          switch (worker + round) % 4 {
          case 0:
            hub.unregister((any Tick).self, observer: observer)
          case 1:
            token.cancel()
          case 2:
            hub.register((any Tick).self, observer: observer)
            hub.notify((any Tick).self) { $0.tick() }
            notifications.increment()
            hub.unregister((any Tick).self, observer: observer)
          default:
            // Released with its registration live: the weak reference must do the rest.
            _ = hub.observerCount((any Tick).self)
          }
        }
      }
    }

    #expect(group.wait(timeout: .now() + 30) == .success)
    #expect(stable.calls.count == notifications.count)
    #expect(hub.observerCount((any Tick).self) == 1)
  }
}

private final class Releasable: Tick, Sendable {
  let calls = Counter()

  func tick() {
    calls.increment()
  }
}

@Suite("Broadcaster Release Stress")
struct BroadcasterReleaseStressTests {
  @Test(
    "observers released on other threads while notifications run are called whole or not at all")
  func releasesRacingNotifications() {
    let hub = Broadcaster()
    let group = DispatchGroup()
    let survivor = Ticker()
    hub.register((any Tick).self, observer: survivor)
    let notifications = Counter()

    for _ in 0..<2 {
      group.onNewThread {
        for _ in 0..<3_000 {
          // Each observer handed over is alive for the call: calling it would crash otherwise.
          hub.notify((any Tick).self) { $0.tick() }
          notifications.increment()
        }
      }
    }
    group.onNewThread {
      for _ in 0..<3_000 {
        // Registered and released at once: the notifiers race its deallocation.
        hub.register((any Tick).self, observer: Releasable())
      }
    }

    #expect(group.wait(timeout: .now() + 30) == .success)
    #expect(survivor.calls.count == notifications.count)
    #expect(hub.observerCount((any Tick).self) == 1)
  }
}
