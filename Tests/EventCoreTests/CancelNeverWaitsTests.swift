import Dispatch
import EventTestSupport
import Foundation
import Synchronization
import Testing

@testable import EventCore

/// Every way a registration ends, each of which used to wait for a handler running on another
/// thread.
enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case cancel
  case tokenReleased
  case bagCancelAll
  case bagReleased
  case isCancelledAfterOwnerDied
  case postPurgingDeadOwner
  case countPurgingDeadOwner
  case reRegistration
  case removeObserver
  case removeAll

  var testDescription: String { rawValue }
}

/// A test's registration: a list, one keyed entry whose handler runs `body` for the payload 1,
/// its token (held in `token`, a bag, or neither) and its owner.
private final class Setup: Sendable {
  let list = ObserverList<Int>()
  let observer = Tracked("observer")
  let token = Mutex<Subscription?>(nil)
  let bag = Mutex<SubscriptionBag?>(SubscriptionBag())
  let owner = Mutex<Tracked?>(Tracked("owner"))

  init(_ ending: Ending, running: RunningHandler) {
    let entry = ObserverEntry<Int>(observer: observer, keyed: true, delivery: .synchronous) {
      _, value in
      if value == 1 { running.run() }
    }
    let token = list.subscribe(entry, endsWithToken: true)
    switch ending {
    case .bagCancelAll, .bagReleased:
      bag.withLock { $0?.insert(token) }
    case .isCancelledAfterOwnerDied, .postPurgingDeadOwner, .countPurgingDeadOwner:
      owner.withLock { _ = token.bind(to: $0!) }
      self.token.withLock { $0 = token }
    default:
      self.token.withLock { $0 = token }
    }
  }

  /// Ends the registration the way `ending` says.
  func end(_ ending: Ending) {
    switch ending {
    case .cancel:
      token.withLock { $0 }?.cancel()
    case .tokenReleased:
      let token = token.withLock { token in
        defer { token = nil }
        return token
      }
      _ = token
    case .bagCancelAll:
      bag.withLock { $0 }?.cancelAll()
    case .bagReleased:
      let bag = bag.withLock { bag in
        defer { bag = nil }
        return bag
      }
      _ = bag
    case .isCancelledAfterOwnerDied:
      killOwner()
      #expect(token.withLock { $0 }?.isCancelled == true)
    case .postPurgingDeadOwner:
      killOwner()
      list.post(2)
    case .countPurgingDeadOwner:
      killOwner()
      #expect(list.count == 0)
    case .reRegistration:
      _ = list.subscribe(
        ObserverEntry(observer: observer, keyed: true, delivery: .synchronous) { _, _ in },
        endsWithToken: false)
    case .removeObserver:
      list.removeObserver(observer)
    case .removeAll:
      list.removeAll()
    }
  }

  private func killOwner() {
    let owner = owner.withLock { owner in
      defer { owner = nil }
      return owner
    }
    _ = owner
  }
}

@Suite("Cancel never waits")
struct CancelNeverWaitsTests {
  @Test(
    "ending a registration returns while its handler runs on another thread",
    arguments: Ending.allCases)
  func endingDoesNotWait(_ ending: Ending) {
    let running = RunningHandler()
    let setup = Setup(ending, running: running)
    let returned = returnsWhileHandlerRuns(running, post: { setup.list.post(1) }) {
      setup.end(ending)
    }
    #expect(returned, "\(ending) waited for the handler running on another thread")
  }

  @Test("after cancel returns, no later post and no queued delivery starts the handler")
  func noInvocationAfterCancel() {
    let queue = DispatchQueue(label: "held")
    let list = ObserverList<Int>()
    let calls = Recorder<String>()
    let synchronous = list.subscribe(
      ObserverEntry(delivery: .synchronous) { calls.record("sync \($0)") }, endsWithToken: true)
    let queued = list.subscribe(
      ObserverEntry(delivery: .queue(queue)) { calls.record("queued \($0)") },
      endsWithToken: true)
    let hold = Signal()
    queue.async { _ = hold.wait() }
    list.post(1)
    synchronous.cancel()
    queued.cancel()
    list.post(2)
    hold.fire()
    #expect(drain(queue))
    #expect(calls.values == ["sync 1"])
  }

  @Test("a handler cancelling a later one in the same post on its thread keeps it from starting")
  func cancelInProgressOnSameThread() {
    let list = ObserverList<Int>()
    let calls = Recorder<String>()
    let second = Mutex<Subscription?>(nil)
    let first = list.subscribe(
      ObserverEntry(delivery: .synchronous) { _ in
        calls.record("first")
        second.withLock { $0 }?.cancel()
      }, endsWithToken: true)
    second.withLock {
      $0 = list.subscribe(
        ObserverEntry(delivery: .synchronous) { _ in calls.record("second") },
        endsWithToken: true)
    }
    list.post(1)
    #expect(calls.values == ["first"])
    withExtendedLifetime(first) {}
  }

  @Test("an invocation already running on another thread may finish after cancel returns")
  func runningInvocationFinishes() {
    let list = ObserverList<Int>()
    let running = RunningHandler()
    let finished = Counter()
    let token = list.subscribe(
      ObserverEntry(delivery: .synchronous) { value in
        if value == 1 { running.run() }
        finished.increment()
      }, endsWithToken: true)
    let returned = returnsWhileHandlerRuns(running, post: { list.post(1) }) { token.cancel() }
    #expect(returned)
    #expect(finished.count == 1, "the running call completed")
    list.post(2)
    #expect(finished.count == 1, "no call started after cancel returned")
  }

  @Test("a handler that syncs onto the queue releasing its token does not deadlock")
  func handlerSyncsOntoReleasingQueue() {
    // The app shape: a handler posted from a background queue hops to the UI queue with `sync`
    // while code on the UI queue releases the token (a screen's deinit).
    let ui = DispatchQueue(label: "ui")
    let list = ObserverList<Int>()
    let entered = Signal()
    let handlerDone = Signal()
    let token = Mutex<Subscription?>(nil)
    token.withLock {
      $0 = list.subscribe(
        ObserverEntry(delivery: .synchronous) { _ in
          entered.fire()
          ui.sync {}
          handlerDone.fire()
        }, endsWithToken: true)
    }
    let released = Signal()
    ui.async {
      _ = entered.wait()
      var dropped = token.withLock { token in
        defer { token = nil }
        return token
      }
      #expect(dropped != nil)
      dropped = nil
      released.fire()
    }
    Thread.detachNewThread { list.post(1) }
    #expect(released.wait(seconds: 5), "releasing the token waited for the handler")
    #expect(handlerDone.wait(seconds: 5), "the handler never got onto the UI queue")
  }

  @Test("cancelling while holding a lock that the running handler takes does not deadlock")
  func cancelUnderLockTheHandlerTakes() {
    let lock = Mutex(0)
    let list = ObserverList<Int>()
    let entered = Signal()
    let lockHeld = Signal()
    let handlerDone = Signal()
    let token = list.subscribe(
      ObserverEntry(delivery: .synchronous) { _ in
        entered.fire()
        _ = lockHeld.wait()
        lock.withLock { $0 += 1 }
        handlerDone.fire()
      }, endsWithToken: true)
    Thread.detachNewThread { list.post(1) }
    let cancelled = onOtherThread(seconds: 5) {
      _ = entered.wait()
      lock.withLock { _ in
        lockHeld.fire()
        token.cancel()
      }
    }
    #expect(cancelled, "cancel waited for the handler that waits for the lock")
    #expect(handlerDone.wait(seconds: 5))
  }

  @Test("a handler cancelling itself does not wait on itself")
  func selfCancelDoesNotWait() {
    let list = ObserverList<Int>()
    let calls = Counter()
    let token = Mutex<Subscription?>(nil)
    token.withLock {
      $0 = list.subscribe(
        ObserverEntry(delivery: .synchronous) { _ in
          calls.increment()
          token.withLock { $0 }?.cancel()
        }, endsWithToken: true)
    }
    let finished = onOtherThread { list.post(1) }
    #expect(finished, "a handler cancelling itself deadlocked")
    list.post(2)
    #expect(calls.count == 1)
  }
}
