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
  var saved: [Int] = []
  nonisolated func save(_ value: Int) {
    MainActor.assumeIsolated { saved.append(value) }
  }
}

/// An actor that registers itself, so its calls queue in its mailbox.
private actor Archive: Saves {
  var saved: [Int] = []
  nonisolated func save(_ value: Int) {
    assumeIsolated { $0.saved.append(value) }
  }
  func start(_ hub: Broadcaster) { hub.register((any Saves).self, observer: self) }
}

private protocol Store: Actor {
  func record(_ value: Int) async
}

/// An actor observer whose calls suspend, so an async body's call is still running when
/// `flush` starts.
private actor Ledger: Store {
  var values: [Int] = []
  func record(_ value: Int) async {
    await Task.yield()
    values.append(value)
  }
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
    queue.suspend()  // the calls wait on the queue until the flush has started
    for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    let flushed = Task { await hub.flush((any Saves).self) }
    queue.resume()
    #expect(await finishes { await flushed.value })
    #expect(saver.saved.values == [1, 2, 3])
  }

  @Test("after flush, a .mainActor observer notified off the main actor has had every call")
  func mainActorDelivery() async {
    let hub = Broadcaster()
    let saver = Saver()
    hub.register((any Saves).self, observer: saver, delivery: .mainActor)
    for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    #expect(await finishes { await hub.flush((any Saves).self) })
    #expect(saver.saved.values == [1, 2, 3])
  }

  @Test("after flush, an observer registered from the main actor has had every call")
  @MainActor
  func mainActorRegistration() async {
    let hub = Broadcaster()
    let screen = Screen()
    hub.register((any Saves).self, observer: screen)
    await Task.detached {
      for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    }.value
    #expect(await finishes { await hub.flush((any Saves).self) })
    #expect(screen.saved == [1, 2, 3])
  }

  @Test("after flush, an actor that registered itself has had every call")
  func actorRegistration() async {
    let hub = Broadcaster()
    let archive = Archive()
    await archive.start(hub)
    for value in 1...3 { hub.notify((any Saves).self) { $0.save(value) } }
    #expect(await finishes { await hub.flush((any Saves).self) })
    #expect(await archive.saved == [1, 2, 3])
  }

  @Test("after flush, every call of an async notify body has returned")
  func asyncBody() async {
    let hub = Broadcaster()
    let ledger = Ledger()
    hub.register((any Store).self, observer: ledger)
    for value in 1...3 { hub.notify((any Store).self) { await $0.record(value) } }
    #expect(await finishes { await hub.flush((any Store).self) })
    #expect(await ledger.values == [1, 2, 3])
  }

  @Test("Broadcaster.flush waits for the shared broadcaster's calls")
  func shared() async {
    let queue = DispatchQueue(label: "BroadcasterFlushTests.shared")
    let saver = Saver()
    let registration = Broadcaster.register(
      (any SharedSaves).self, observer: saver, delivery: .queue(queue))
    defer { registration.cancel() }
    queue.suspend()
    Broadcaster.notify((any SharedSaves).self) { $0.save(1) }
    let flushed = Task { await Broadcaster.flush((any SharedSaves).self) }
    queue.resume()
    #expect(await finishes { await flushed.value })
    #expect(saver.saved.values == [1])
  }

  @Test("flush of a protocol nothing registered for returns at once")
  func nothingRegistered() async {
    #expect(await finishes { await Broadcaster().flush((any Saves).self) })
  }
}
