import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// An observer with nothing to it.
private final class Reader: Sendable {}

/// What another thread does to the keyed event while a handler of key 1 runs (or waits for it).
enum KeyedOperation: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case cancelRunning, cancelOtherKey, releaseToken, unregisterOnChannel, unregisterEverywhere
  case unregisterAll, reRegisterRunning, registerSameKey, registerOtherKey, postSameKey
  case postOtherKey, counts, observedChange, sweep

  var testDescription: String { rawValue }
}

/// A keyed event whose key 1 has a registration that runs `body` for the payload 1, and what
/// each operation needs.
private final class KeyedSetup: Sendable {
  let keyed: KeyedEvent<Int, Int>
  let reader = Reader()
  let running = Lock<Subscription?>(nil)
  let other = Lock<Subscription?>(nil)
  let released = Lock<Subscription?>(nil)

  init(reentrancy: Reentrancy = .immediate, body: @escaping @Sendable () -> Void) {
    keyed = KeyedEvent(reentrancy: reentrancy)
    let token = keyed[1].register(reader) { _, value in if value == 1 { body() } }
    running.withLock { $0 = token }
    other.withLock { $0 = keyed[2].subscribe { _ in } }
    released.withLock { $0 = keyed[1].subscribe { _ in } }
  }

  /// Does `operation`, and reports whether what it saw was consistent.
  func run(_ operation: KeyedOperation) -> Bool {
    switch operation {
    case .cancelRunning:
      running.withLock { $0 }?.cancel()
      return running.withLock { $0 }?.isCancelled == true
    case .cancelOtherKey:
      other.withLock { $0 }?.cancel()
      return keyed[2].observerCount == 0
    case .releaseToken:
      let token = released.withLock { token in
        defer { token = nil }
        return token
      }
      _ = token
      return true
    case .unregisterOnChannel:
      keyed[1].unregister(reader)
      return running.withLock { $0 }?.isCancelled == true
    case .unregisterEverywhere:
      keyed.unregister(reader)
      return running.withLock { $0 }?.isCancelled == true
    case .unregisterAll:
      keyed[1].unregisterAll()
      return keyed[1].observerCount == 0
    case .reRegisterRunning:
      keyed[1].register(reader) { _, _ in }
      return running.withLock { $0 }?.isCancelled == true
    case .registerSameKey:
      keyed[1].subscribe { _ in }.cancel()
      return true
    case .registerOtherKey:
      keyed[3].register(reader) { _, _ in }
      return keyed[3].observerCount == 1
    case .postSameKey:
      return keyed.post(2, to: 1) >= 1
    case .postOtherKey:
      return keyed.post(2, to: 2) == 1
    case .counts:
      return keyed.keyCount >= 1 && keyed[1].observerCount >= 1 && keyed[1].isObserved
    case .observedChange:
      let watch = keyed[1].onObservedChange { _ in }
      watch.cancel()
      return watch.isCancelled
    case .sweep:
      // Enough keys of dead observers that one registration sweeps, while key 1 is posting.
      for key in 100..<300 { keyed[key].register(Reader()) { _, _ in } }
      return keyed.keyCount < 200
    }
  }
}

@Suite("KeyedEvent: cancel never waits, and no user code runs under a lock")
struct KeyedEventCancelNeverWaitsTests {
  @Test(
    "each operation returns while a handler of key 1 runs on another thread",
    arguments: KeyedOperation.allCases)
  func operationReturns(_ operation: KeyedOperation) {
    let handler = RunningHandler()
    let setup = KeyedSetup { handler.run() }
    let consistent = Lock(false)
    let returned = returnsWhileHandlerRuns(handler, post: { setup.keyed.post(1, to: 1) }) {
      let result = setup.run(operation)
      consistent.withLock { $0 = result }
    }
    #expect(returned, "\(operation) waited for the handler running on another thread")
    #expect(consistent.withLock { $0 })
  }

  @Test(
    "a handler that waits for another thread doing each operation does not deadlock",
    arguments: [Reentrancy.immediate, .queued], KeyedOperation.allCases)
  func handlerWaitsForOtherThread(_ reentrancy: Reentrancy, _ operation: KeyedOperation) {
    let result = Lock<Bool?>(nil)
    let holder = Lock<KeyedSetup?>(nil)
    let setup = KeyedSetup(reentrancy: reentrancy) {
      guard let setup = holder.withLock({ $0 }) else { return }
      let finished = onOtherThread(seconds: 5) {
        let consistent = setup.run(operation)
        result.withLock { $0 = consistent }
      }
      if !finished { result.withLock { $0 = false } }
    }
    holder.withLock { $0 = setup }
    #expect(onOtherThread(seconds: 10) { setup.keyed.post(1, to: 1) })
    #expect(result.withLock { $0 } == true, "\(operation) deadlocked with the waiting handler")
    holder.withLock { $0 = nil }
  }

  @Test("a captured object's deinit, run as the last registration ends, may use the keyed event")
  func deinitUsesKeyedEvent() {
    let keyed = KeyedEvent<Int, Int>()
    let inDeinit = Recorder<Int>()
    let later = Lock<Subscription?>(nil)
    let token = Lock<Subscription?>(nil)
    do {
      let captured = Tracked("captured") {
        // Under the table's lock, this would deadlock: the lock is not recursive.
        _ = keyed.keyCount
        inDeinit.record(keyed.post(0, to: 1))
        later.withLock { $0 = keyed[2].subscribe { _ in } }
      }
      token.withLock { $0 = keyed[1].subscribe { _ in withExtendedLifetime(captured) {} } }
    }
    #expect(onOtherThread(seconds: 5) { token.withLock { $0 }?.cancel() }, "deadlocked")
    #expect(inDeinit.values == [0], "the deinit ran, and the cancelled handler was not reached")
    #expect(keyed.keyCount == 1, "key 1 was removed; key 2 was made")
    later.withLock { $0 }?.cancel()
  }

  @Test("a dead observer's deinit, run when a post purges it, may use the keyed event")
  func purgedDeinitUsesKeyedEvent() {
    let keyed = KeyedEvent<Int, Int>()
    let inDeinit = Recorder<Int>()
    let observer = Lock<Tracked?>(Tracked("observer"))
    do {
      let captured = Tracked("captured") { inDeinit.record(keyed.keyCount) }
      keyed[1].register(observer.withLock { $0! }) { _, _ in withExtendedLifetime(captured) {} }
    }
    #expect(onOtherThread(seconds: 5) { observer.withLock { $0 = nil } })
    #expect(onOtherThread(seconds: 5) { _ = keyed.post(1, to: 1) }, "deadlocked")
    #expect(inDeinit.values.count == 1)
    #expect(keyed.keyCount == 0)
  }

  @Test("an onObservedChange handler may register and post on its keyed event")
  func observedChangeHandlerUsesKeyedEvent() {
    let keyed = KeyedEvent<Int, Int>()
    let log = Recorder<String>()
    let inner = Lock<Subscription?>(nil)
    let watch = keyed[1].onObservedChange { observed in
      _ = keyed.keyCount
      log.record("\(observed) reached \(keyed.post(0, to: 1))")
      if observed { inner.withLock { $0 = keyed[2].subscribe { _ in } } }
    }
    #expect(
      onOtherThread(seconds: 5) {
        keyed[1].subscribe { _ in }.cancel()
      }, "deadlocked")
    #expect(log.values == ["true reached 1", "false reached 0"])
    watch.cancel()
    inner.withLock { $0 }?.cancel()
  }

  @Test("waits on the same and another key start and end while a handler of key 1 is blocked")
  func nextWhileHandlerBlocked() async throws {
    let keyed = KeyedEvent<Int, Int>()
    let handler = RunningHandler()
    let token = keyed[1].subscribe { value in if value == 1 { handler.run() } }
    let posted = Signal()
    Thread {
      keyed.post(1, to: 1)
      posted.fire()
    }.start()
    #expect(await handler.entered.arrival())
    // The handler blocks a thread of its own: this task's waits must not wait for it.
    let other = try await keyed[2].next(timeout: .seconds(10)) { keyed.post(2, to: 2) }
    let same = try await keyed[1].next(where: { $0 == 3 }, timeout: .seconds(10)) {
      keyed.post(3, to: 1)
    }
    await #expect(throws: EventTimeout.self) {
      try await keyed[1].next(timeout: .milliseconds(10))
    }
    handler.finish()
    #expect(await posted.arrival())
    #expect(other == 2)
    #expect(same == 3)
    token.cancel()
    #expect(keyed.keyCount == 0)
  }
}
