import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Synchronization
import Testing

/// An observer with nothing to it.
private final class Peer: Sendable {}

/// A flag the test sets to stop its threads.
private final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)

  var isSet: Bool { flag.load(ordering: .relaxed) }

  func set() {
    flag.store(true, ordering: .relaxed)
  }
}

/// Starts `bodies` on threads of their own, each called in a loop until `stop` is set, without
/// blocking the caller (a test's task needs the cooperative pool for its waits).
///
/// - Returns: One signal per thread, fired when it has stopped.
private func startThreads(
  _ bodies: [@Sendable (Int) -> Void], until stop: StopFlag
) -> [Signal] {
  bodies.map { body in
    let stopped = Signal()
    Thread {
      var round = 0
      while !stop.isSet {
        body(round)
        round += 1
      }
      stopped.fire()
    }.start()
    return stopped
  }
}

/// Keys that replier threads answer, each with the key itself as its reply.
private final class ReplyQueue: Sendable {
  // EventCore's lock, not Synchronization's Mutex, whose hand-offs ThreadSanitizer cannot see
  // on Linux (see `Lock`).
  private let pending = Lock<[Int]>([])
  private let ready = DispatchSemaphore(value: 0)

  func ask(_ key: Int) {
    pending.withLock { $0.append(key) }
    ready.signal()
  }

  /// Answers the oldest key asked, if one is asked within a millisecond.
  func answer(on replies: KeyedEvent<Int, Int>) {
    guard ready.wait(timeout: .now() + .milliseconds(1)) == .success else { return }
    guard let key = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
    replies.post(key, to: key)
  }
}

@Suite("KeyedEvent Stress")
struct KeyedEventStressTests {
  @Test("posting to many keys while others register, wait, time out and cancel")
  func everythingAtOnce() async {
    let replies = KeyedEvent<Int, Int>()
    let noiseKeys = 64
    let stop = StopFlag()
    let queue = ReplyQueue()
    let noiseCalls = Counter()
    let nextKey = Counter()
    let stopped = startThreads(
      [
        // Posters, to every noise key and to keys nobody observes.
        { round in replies.post(-1, to: round % noiseKeys) },
        { round in replies.post(-1, to: (round * 7) % noiseKeys) },
        { round in _ = replies.post(-2, to: 2_000_000 + round) },
        // Repliers.
        { _ in queue.answer(on: replies) },
        { _ in queue.answer(on: replies) },
        // Registrars: subscriptions, observers that die, unregistering across keys.
        { round in
          let token = replies[round % noiseKeys].subscribe { _ in noiseCalls.increment() }
          if round.isMultiple(of: 3) { replies[(round + 1) % noiseKeys].post(-3) }
          token.cancel()
        },
        { round in
          let peer = Peer()
          replies[(round * 5) % noiseKeys].register(peer) { _, _ in noiseCalls.increment() }
          replies[(round * 5 + 1) % noiseKeys].register(peer) { _, _ in }
          if round.isMultiple(of: 2) { replies.unregister(peer) }
        },
      ], until: stop)

    let answered = Counter()
    let timedOut = Counter()
    let cancelled = Counter()
    let wrong = Recorder<String>()
    let deadline = ContinuousClock.now + .seconds(2)
    let finished = await finishes(within: 60) {
      await withTaskGroup(of: Void.self) { group in
        for waiter in 0..<4 {
          group.addTask {
            var round = 0
            // At least a few rounds of each kind: run beside the whole suite, the pool these
            // tasks need may be busy for the whole two seconds.
            while round < 16 || ContinuousClock.now < deadline {
              round += 1
              let key = 1_000_000 + nextKey.increment()
              switch (round + waiter) % 4 {
              case 0, 1:
                // Answered by a replier thread, or (rarely, under load) timed out first.
                do {
                  let reply = try await replies[key].next(timeout: .seconds(5)) { queue.ask(key) }
                  if reply == key { answered.increment() } else { wrong.record("\(key): \(reply)") }
                } catch is EventTimeout {
                  timedOut.increment()
                } catch {
                  wrong.record("\(key): \(error)")
                }
              case 2:
                // Nobody answers: it times out.
                do {
                  let reply = try await replies[key].next(timeout: .microseconds(200))
                  wrong.record("\(key): unasked \(reply)")
                } catch is EventTimeout {
                  timedOut.increment()
                } catch {
                  wrong.record("\(key): \(error)")
                }
              default:
                // Nobody answers: it is cancelled.
                let waiting = Task { try await replies[key].next(timeout: .seconds(30)) }
                await Task.yield()
                waiting.cancel()
                switch await waiting.result {
                case .success(let reply): wrong.record("\(key): uncancelled \(reply)")
                case .failure(let error as CancellationError): _ = error; cancelled.increment()
                case .failure(let error): wrong.record("\(key): \(error)")
                }
              }
            }
          }
        }
      }
    }
    stop.set()
    for thread in stopped { #expect(await thread.arrival()) }
    #expect(finished, "the waiters did not finish in time")
    #expect(wrong.values.isEmpty, "\(wrong.values.prefix(5))")
    #expect(answered.count > 0)
    #expect(timedOut.count > 0)
    #expect(cancelled.count > 0)
    // Observers that died unseen count until a count sees them.
    for key in 0..<noiseKeys { #expect(replies[key].observerCount == 0) }
    #expect(replies.keyCount == 0, "keys left behind")
  }

  @Test("threads making and removing the same keys: a live registration is always reached")
  func sharedKeysChurn() {
    let replies = KeyedEvent<Int, Int>()
    let missed = Counter()
    let posts = Counter()
    let stop = StopFlag()
    let bodies: [@Sendable (Int) -> Void] = (0..<4).map { thread in
      { round in
        let key = (round + thread) % 3
        let token = replies[key].subscribe { _ in }
        // Its own registration is live: a post must reach it, whatever the other threads
        // do to the key (a registration landing in a list already removed would be missed).
        if replies.post(thread, to: key) < 1 { missed.increment() }
        if replies[key].observerCount < 1 { missed.increment() }
        posts.increment()
        token.cancel()
      }
    }
    let stopped = startThreads(bodies, until: stop)
    Thread.sleep(forTimeInterval: 1)
    stop.set()
    for thread in stopped { #expect(thread.wait(seconds: 30)) }
    #expect(posts.count > 0)
    #expect(missed.count == 0)
    #expect(replies.keyCount == 0)
  }

  @Test("a channel's onObservedChange installed while other threads churn its key hears it")
  func observedChangeChurn() {
    let replies = KeyedEvent<Int, Int>()
    let stop = StopFlag()
    let unheard = Counter()
    let rounds = Counter()
    let churners = startThreads(
      [
        // Installs and cancels handlers of key 0, which drops the key's handlers once none
        // is left.
        { _ in replies[0].onObservedChange { _ in }.cancel() },
        { _ in replies[0].onObservedChange { _ in }.cancel() },
      ], until: stop)
    let deadline = Date().addingTimeInterval(1)
    while Date() < deadline {
      // Only this thread registers on key 0: its handler must hear the first registration,
      // which the registering thread delivers before subscribe returns.
      let heard = Recorder<Bool>()
      let watch = replies[0].onObservedChange { heard.record($0) }
      let token = replies[0].subscribe { _ in }
      token.cancel()
      watch.cancel()
      if heard.values != [true, false] { unheard.increment() }
      rounds.increment()
    }
    stop.set()
    for thread in churners { #expect(thread.wait(seconds: 30)) }
    #expect(rounds.count > 0)
    #expect(unheard.count == 0, "\(unheard.count) of \(rounds.count) handlers missed changes")
    #expect(replies.keyCount == 0)
  }
}
