import EventBroadcast
import EventCore
import EventTestSupport
import Foundation
import Testing

private protocol Saves: AnyObject {
  func save(_ value: Int)
}

/// A nonisolated observer that records each call, wherever it runs.
private final class Saver: Saves, Sendable {
  let saved = Recorder<Int>()
  func save(_ value: Int) { saved.record(value) }
}

/// A main-actor observer, registered from its actor.
@MainActor private final class Screen: Saves {
  nonisolated let saved = Recorder<Int>()
  nonisolated func save(_ value: Int) {
    MainActor.assumeIsolated { saved.record(value) }
  }
}

/// An actor on a queue the test can hold, which registers itself, so its calls queue in its
/// mailbox.
private actor Archive: Saves {
  let executor = QueueSerialExecutor(label: "BroadcasterFlushTests.archive")
  nonisolated let saved = Recorder<Int>()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  nonisolated func save(_ value: Int) {
    assumeIsolated { $0.saved.record(value) }
  }

  func start(_ hub: Broadcaster) { hub.register((any Saves).self, observer: self) }
}

private protocol Store: Actor {
  func record(_ value: Int) async
}

/// An actor observer on a queue the test can hold, whose calls suspend.
private actor Ledger: Store {
  let executor = QueueSerialExecutor(label: "BroadcasterFlushTests.ledger")
  nonisolated let values = Recorder<Int>()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  func record(_ value: Int) async {
    await Task.yield()
    values.record(value)
  }
}

/// A global actor on a queue the test can hold, for `notify` bodies isolated to it.
@globalActor private actor HeldActor {
  static let shared = HeldActor()
  let executor = QueueSerialExecutor(label: "BroadcasterFlushTests.heldActor")
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

/// Notified only through `Broadcaster.shared`, by this suite alone.
private protocol SharedSaves: AnyObject {
  func save(_ value: Int)
}

extension Saver: SharedSaves {}

@Suite("Broadcaster flush", .timeLimit(.minutes(1)))
struct BroadcasterFlushTests {
  @Test("after flush, a .queue(q) observer has had every earlier call")
  func queued() async {
    let hub = Broadcaster()
    let queue = DispatchQueue(label: "BroadcasterFlushTests.queued")
    let saver = Saver()
    hub.register((any Saves).self, observer: saver, delivery: .queue(queue))
    let saved = await flushResult(holding: queue) {
      for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    } flush: {
      await hub.flush((any Saves).self)
      return saver.saved.values
    }
    #expect(saved == [1, 2, 3])
  }

  @Test("after flush, a .mainActor observer notified off the main actor has had every call")
  func mainActorDelivery() async {
    let hub = Broadcaster()
    let saver = Saver()
    hub.register((any Saves).self, observer: saver, delivery: .mainActor)
    let saved = await flushResult(holding: .main) {
      for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    } flush: {
      await hub.flush((any Saves).self)
      return saver.saved.values
    }
    #expect(saved == [1, 2, 3])
  }

  @Test("after flush, an observer registered from the main actor has had every call")
  func mainActorRegistration() async {
    let hub = Broadcaster()
    let screen = Screen()
    await MainActor.run { _ = hub.register((any Saves).self, observer: screen) }
    let saved = await flushResult(holding: .main) {
      for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    } flush: {
      await hub.flush((any Saves).self)
      return screen.saved.values
    }
    #expect(saved == [1, 2, 3])
  }

  @Test("after flush, an actor that registered itself has had every call")
  func actorRegistration() async {
    let hub = Broadcaster()
    let archive = Archive()
    await archive.start(hub)
    let saved = await flushResult(holding: archive.executor.queue) {
      for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    } flush: {
      await hub.flush((any Saves).self)
      return archive.saved.values
    }
    #expect(saved == [1, 2, 3])
  }

  @Test("after flush, every call of an async notify body has returned")
  func asyncBody() async {
    let hub = Broadcaster()
    let ledger = Ledger()
    hub.register((any Store).self, observer: ledger)
    let recorded = await flushResult(holding: ledger.executor.queue) {
      for value in 1...3 { hub.notify((any Store).self) { await $0.record(value) } }
    } flush: {
      await hub.flush((any Store).self)
      return ledger.values.values
    }
    #expect(recorded == [1, 2, 3])
  }

  @Test("after flush, a body isolated to another actor, notified from off it, has run")
  func isolatedBody() async {
    let hub = Broadcaster()
    let saver = Saver()
    hub.register((any Saves).self, observer: saver)
    let saved = await flushResult(holding: HeldActor.shared.executor.queue) {
      for value in 1...3 { hub.notify((any Saves).self) { @HeldActor in $0.save(value) } }
    } flush: {
      await hub.flush((any Saves).self)
      return saver.saved.values
    }
    // One job per notification: each runs in order on the actor only if started in order.
    #expect(saved?.sorted() == [1, 2, 3])
  }

  @Test("after flush, a body isolated to the main actor has run for a synchronous observer")
  func mainActorBodyForASynchronousObserver() async {
    let hub = Broadcaster()
    let saver = Saver()
    hub.register((any Saves).self, observer: saver)
    let saved = await flushResult(holding: .main) {
      for value in 1...3 { hub.notify((any Saves).self) { @MainActor in $0.save(value) } }
    } flush: {
      await hub.flush((any Saves).self)
      return saver.saved.values
    }
    #expect(saved == [1, 2, 3])
  }

  @Test("Broadcaster.flush waits for the shared broadcaster's calls")
  func shared() async {
    let queue = DispatchQueue(label: "BroadcasterFlushTests.shared")
    let saver = Saver()
    let registration = Broadcaster.register(
      (any SharedSaves).self, observer: saver, delivery: .queue(queue))
    defer { registration.cancel() }
    let saved = await flushResult(holding: queue) {
      Broadcaster.notify((any SharedSaves).self) { $0.save(1) }
    } flush: {
      await Broadcaster.flush((any SharedSaves).self)
      return saver.saved.values
    }
    #expect(saved == [1])
  }

  @Test("flush of a protocol nothing registered for returns at once")
  func nothingRegistered() async {
    #expect(await finishes { await Broadcaster().flush((any Saves).self) })
  }
}
