import EventBroadcast
import EventCore
import EventTestSupport
import Foundation
import Testing

private protocol Store: Actor {
  func record(_ value: Int) async
}

/// An actor observer that suspends inside each call, so that overlapping calls would show.
private actor Ledger: Store {
  var values: [Int] = []
  var running = 0
  var overlapped = false
  let arrived = Signal()

  func start(_ hub: Broadcaster) {
    hub.register((any Store).self, observer: self)
  }

  func record(_ value: Int) async {
    running += 1
    if running > 1 { overlapped = true }
    await Task.yield()
    values.append(value)
    running -= 1
    arrived.fire()
  }
}

private protocol Refresh: Sendable {
  func refresh(_ value: Int) async
}

private let asyncQueueKey = DispatchSpecificKey<UInt8>()

/// A nonisolated observer that records each call.
private final class Cache: Refresh {
  let onQueue = Recorder<Bool>()
  let values = Recorder<Int>()
  let arrived = Signal()

  func refresh(_ value: Int) async {
    values.record(value)
    arrived.fire()
  }
}

@Suite("Broadcaster async notify")
struct BroadcasterAsyncNotifyTests {
  let hub = Broadcaster()

  @Test("an async body reaches an actor observer one call at a time, in notify order")
  func actorObserverInOrder() async {
    let ledger = Ledger()
    await ledger.start(hub)

    for value in 1...30 { hub.notify((any Store).self) { await $0.record(value) } }

    for _ in 1...30 { #expect(await ledger.arrived.arrival()) }
    #expect(await ledger.values == Array(1...30))
    #expect(await ledger.overlapped == false)
  }

  @Test("notify with an async body returns without waiting for the call")
  func returnsAtOnce() async {
    let cache = Cache()
    hub.register((any Refresh).self, observer: cache)
    let gate = Signal()
    let hub = hub

    // On a thread of its own, so that no thread of the cooperative pool waits for it.
    let returned = Signal()
    Thread.detachNewThread {
      hub.notify((any Refresh).self) { observer in
        _ = await gate.arrival()
        await observer.refresh(1)
      }
      returned.fire()
    }
    #expect(await returned.arrival(seconds: 5))
    gate.fire()
    #expect(await cache.arrived.arrival())
  }

  @Test("an async body for a .queue(q) observer starts on q")
  func startsOnTheQueue() async {
    let queue = DispatchQueue(label: "async-refresh")
    queue.setSpecific(key: asyncQueueKey, value: 1)
    let cache = Cache()
    hub.register((any Refresh).self, observer: cache, delivery: .queue(queue))

    for value in 1...3 {
      hub.notify((any Refresh).self) { observer in
        cache.onQueue.record(DispatchQueue.getSpecific(key: asyncQueueKey) != nil)
        await observer.refresh(value)
      }
    }

    for _ in 1...3 { #expect(await cache.arrived.arrival()) }
    #expect(cache.onQueue.values == [true, true, true])
    #expect(cache.values.values == [1, 2, 3])
  }

  @Test("an async body for a screen registered from main-actor code runs on the main actor")
  @MainActor
  func mainActorRegistration() async {
    let cache = Cache()
    hub.register((any Refresh).self, observer: cache)
    let onMainActor = Recorder<Bool>()
    let hub = hub

    Thread.detachNewThread {
      hub.notify((any Refresh).self) { observer in
        onMainActor.record(MainActorDetection.isOnMainActor)
        await observer.refresh(1)
      }
    }

    #expect(await cache.arrived.arrival())
    #expect(onMainActor.values == [true])
  }

  @Test("an observer released before its async call starts is not called")
  func releasedBeforeTheCall() async {
    let queue = DispatchQueue(label: "async-release")
    var cache: Cache? = Cache()
    let released = Weak(cache)
    let calls = cache!.values
    hub.register((any Refresh).self, observer: cache!, delivery: .queue(queue))

    queue.suspend()
    hub.notify((any Refresh).self) { await $0.refresh(1) }
    cache = nil
    #expect(released.object == nil)
    queue.resume()

    #expect(await finishes { await drainAsyncCalls(queue) })
    #expect(calls.count == 0)
  }

  @Test("a closure without await still selects the synchronous notify, in async code too")
  func synchronousOverloadForPlainClosures() async {
    let cache = SynchronousCache()
    hub.register((any SynchronousRefresh).self, observer: cache)

    hub.notify((any SynchronousRefresh).self) { $0.refresh(1) }
    Broadcaster.shared.notify((any SynchronousRefresh).self) { $0.refresh(2) }

    #expect(cache.values.values == [1])
  }
}

private protocol SynchronousRefresh {
  func refresh(_ value: Int)
}

private final class SynchronousCache: SynchronousRefresh, Sendable {
  let values = Recorder<Int>()
  func refresh(_ value: Int) { values.record(value) }
}

/// Waits until the queue has run what was enqueued on it, twice: a task resumed there enqueues
/// its next job behind the first drain.
private func drainAsyncCalls(_ queue: DispatchQueue) async {
  for _ in 0..<2 {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async { continuation.resume() }
    }
  }
}
