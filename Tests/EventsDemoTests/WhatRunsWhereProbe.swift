import Dispatch
import EventCore
import Foundation
import Synchronization

/// What a handler saw of the thread it ran on, and of the call that caused it.
struct Observation: Codable, Equatable, Sendable {
  /// How many times the handler ran.
  var calls: Int
  /// Inside the triggering call, on its thread (not later, not elsewhere).
  var duringCall: Bool
  var onMainActor: Bool
  /// On the registration's `.queue(q)` queue.
  var onQueue: Bool
  /// On the observing actor (its `isolated` parameter).
  var onActor: Bool
  /// The triggering call returned only after every call of the handler had finished.
  var callWaited: Bool
}

/// One form, one place the triggering call is made from, and what was seen there.
struct WhereRecord: Codable, Equatable, Sendable {
  var id: String
  var module: String
  var form: String
  var writtenIn: String
  var delivery: String
  var trigger: String
  var calledFrom: String
  var observed: Observation
}

private let queueKey = DispatchSpecificKey<Int>()
private let nextProbeID = Mutex(0)
private let inCallKey = "WhatRunsWhere.inCall"

/// Records where its handler runs. Each case has a probe of its own.
final class Probe: Sendable {
  let id: Int
  /// A serial queue for `.queue(q)` registrations, marked so that a handler can tell it is on it.
  let queue: DispatchQueue
  /// Whether handlers not inside the call wait for it to return (not for `send`, which waits).
  let holdsUntilReturn: Bool
  private let returned = DispatchGroup()
  private let seen = Mutex<[Observation]>([])
  private let finished = Mutex(0)
  /// The task of an awaited triggering call while it runs: a handler in that task is inside it
  /// (a `Task` the call starts inherits task-locals, so they cannot tell).
  private let awaitingTask = Mutex<Int?>(nil)

  init(holdsUntilReturn: Bool) {
    id = nextProbeID.withLock {
      $0 += 1
      return $0
    }
    queue = DispatchQueue(label: "what-runs-where.q")
    queue.setSpecific(key: queueKey, value: id)
    self.holdsUntilReturn = holdsUntilReturn
    returned.enter()
  }

  /// Called by a handler: records where it runs, then, unless it runs inside the call, waits
  /// for the call to return.
  func hit(onActor: Bool = false) {
    let marks = Thread.current.threadDictionary
    // A thread mark for a synchronous call; for an awaited one, whose thread may go on to other
    // work once it suspends, its task instead.
    let task = withUnsafeCurrentTask { $0?.hashValue }
    let during =
      (marks[inCallKey] as? Int) == id || (task != nil && task == awaitingTask.withLock { $0 })
    let observation = Observation(
      calls: 1, duringCall: during, onMainActor: MainActorDetection.isOnMainActor,
      onQueue: DispatchQueue.getSpecific(key: queueKey) == id, onActor: onActor,
      callWaited: false)
    seen.withLock { $0.append(observation) }
    if !during && holdsUntilReturn {
      // A call that waited for this handler would never return: the bound ends the wait, and
      // `callWaited` then says so.
      _ = returned.wait(timeout: .now() + 20)
    }
    finished.withLock { $0 += 1 }
  }

  /// Runs the triggering call with the current thread marked as inside it.
  func call(_ body: () -> Void) -> Int {
    mark()
    body()
    return unmark()
  }

  /// Runs an awaited triggering call with its task marked as inside it.
  func awaitCall(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> Void
  ) async -> Int {
    let task = withUnsafeCurrentTask { $0?.hashValue }
    awaitingTask.withLock { $0 = task }
    await body()
    awaitingTask.withLock { $0 = nil }
    return returnedNow()
  }

  private func mark() {
    Thread.current.threadDictionary[inCallKey] = id
  }

  private func unmark() -> Int {
    Thread.current.threadDictionary[inCallKey] = nil
    return returnedNow()
  }

  /// Ends the call: handlers queued elsewhere may go on. Returns how many handlers had
  /// finished by then.
  func returnedNow() -> Int {
    let done = finished.withLock { $0 }
    returned.leave()
    return done
  }

  var count: Int { finished.withLock { $0 } }

  func observation(finishedAtReturn: Int) -> Observation {
    let all = seen.withLock { $0 }
    guard var first = all.first else {
      return Observation(
        calls: 0, duringCall: false, onMainActor: false,
        onQueue: false, onActor: false, callWaited: false)
    }
    // Every call of one handler runs in the same place; a form where they did not would show
    // as a difference in `calls` against the record.
    first.calls = all.filter { $0 == all[0] }.count
    first.callWaited = finishedAtReturn == all.count
    return first
  }
}
