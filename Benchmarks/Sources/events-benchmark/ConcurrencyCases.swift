import Dispatch
import Events
import Foundation
import MallocCounter
import Synchronization

/// A channel that several threads post to while another registers and ends registrations.
protocol ContentionSubject: Sendable {
  func post(_ value: Int)
  /// One registration and its end.
  func churn()
}

/// Baseline: an ordered array of closures under a `Mutex`, posts iterating a copy.
final class MutexSubject: ContentionSubject {
  private let state = Mutex<(next: Int, handlers: [(id: Int, body: @Sendable (Int) -> Void)])>(
    (0, []))

  init(observers: Int) {
    for _ in 0..<observers { _ = add() }
  }

  private func add() -> Int {
    state.withLock { state in
      state.next += 1
      state.handlers.append((state.next, handler))
      return state.next
    }
  }

  func post(_ value: Int) {
    let snapshot = state.withLock { $0.handlers }
    for entry in snapshot { entry.body(value) }
  }

  func churn() {
    let id = add()
    // Removed outside `withLock`'s closure result: the closure it drops runs no user code.
    _ = state.withLock { state in
      state.handlers.firstIndex { $0.id == id }.map { state.handlers.remove(at: $0) }
    }
  }
}

/// A token from `addObserver(forName:object:queue:using:)`, kept only to hold the observer.
///
/// `@unchecked Sendable`: the benchmark never reads or calls the token; it only keeps it alive
/// until the sample ends.
struct ObserverToken: @unchecked Sendable {
  let token: any NSObjectProtocol
}

/// Foundation's block observers.
final class FoundationSubject: ContentionSubject {
  private let center = NotificationCenter()
  private let tokens: [ObserverToken]

  init(observers: Int) {
    let center = center
    tokens = (0..<observers).map { _ in
      ObserverToken(
        token: center.addObserver(forName: benchName, object: nil, queue: nil) { _ in
          bench_consume(1)
        })
    }
  }

  func post(_ value: Int) {
    center.post(name: benchName, object: nil)
  }

  func churn() {
    let token = center.addObserver(forName: benchName, object: nil, queue: nil) { _ in
      bench_consume(1)
    }
    center.removeObserver(token)
  }
}

/// EventTyped's token-held closures.
final class EventSubject: ContentionSubject {
  private let event = Event<Int>()
  private let tokens: [Subscription]

  init(observers: Int) {
    let event = event
    tokens = (0..<observers).map { _ in event.subscribe { bench_consume($0) } }
  }

  func post(_ value: Int) {
    event.post(value)
  }

  func churn() {
    event.subscribe { bench_consume($0) }.cancel()
  }
}

/// EventBroadcast's weak protocol observers.
final class BroadcasterSubject: ContentionSubject {
  private let broadcaster = Broadcaster()
  private let targets: [Target]

  init(observers: Int) {
    targets = makeTargets(observers)
    for target in targets { broadcaster.register((any BenchObserver).self, observer: target) }
  }

  func post(_ value: Int) {
    broadcaster.notify((any BenchObserver).self) { $0.receive(value) }
  }

  func churn() {
    let target = Target()
    broadcaster.register((any BenchObserver).self, observer: target)
    broadcaster.unregister((any BenchObserver).self, observer: target)
  }
}

/// What one poster thread saw.
private struct PosterReport: Sendable {
  var posts = 0
  var longestStall: UInt64 = 0
}

/// Flags and reports shared by the threads of one contention sample.
private final class ContentionRun: Sendable {
  let stop = Atomic<Bool>(false)
  let started = Atomic<Int>(0)
  let reports = Mutex<[PosterReport]>([])
  let churns = Atomic<Int>(0)
  /// The longest single churn (one registration and its end), in nanoseconds.
  let longestChurn = Atomic<UInt64>(0)
  let finished = DispatchSemaphore(value: 0)
}

/// Runs 2 posting threads and 1 thread registering and cancelling for `duration`.
///
/// A stall is the time between two consecutive returns from `post` on one poster: the post
/// itself plus any wait for a lock, or for the scheduler, in between. A churn's time is that of
/// one registration and its end on the third thread, waits for the lock included: how long a
/// registering thread can wait behind the posters.
private func contentionSample(_ subject: any ContentionSubject, duration: UInt64) -> FixedSample {
  let run = ContentionRun()
  let posters = 2
  for _ in 0..<posters {
    Thread.detachNewThread {
      run.started.add(1, ordering: .relaxed)
      var report = PosterReport()
      var last = now()
      while !run.stop.load(ordering: .relaxed) {
        subject.post(report.posts)
        let time = now()
        report.longestStall = max(report.longestStall, time - last)
        last = time
        report.posts += 1
      }
      run.reports.withLock { $0.append(report) }
      run.finished.signal()
    }
  }
  Thread.detachNewThread {
    run.started.add(1, ordering: .relaxed)
    var longest: UInt64 = 0
    while !run.stop.load(ordering: .relaxed) {
      let start = now()
      subject.churn()
      longest = max(longest, now() - start)
      run.churns.add(1, ordering: .relaxed)
    }
    run.longestChurn.store(longest, ordering: .relaxed)
    run.finished.signal()
  }
  while run.started.load(ordering: .relaxed) < posters + 1 { sched_yield() }
  let start = now()
  usleep(UInt32(duration / 1000))
  run.stop.store(true, ordering: .relaxed)
  let elapsed = now() - start
  for _ in 0...posters { run.finished.wait() }
  let reports = run.reports.withLock { $0 }
  let posts = reports.reduce(0) { $0 + $1.posts }
  let stall = reports.map(\.longestStall).max() ?? 0
  let seconds = Double(elapsed) / 1e9
  return FixedSample(
    value: Double(elapsed) / Double(max(posts, 1)), operations: posts,
    extras: [
      "posts/s": Double(posts) / seconds,
      "longest stall ms": Double(stall) / 1e6,
      "churns/s": Double(run.churns.load(ordering: .relaxed)) / seconds,
      "longest churn ms": Double(run.longestChurn.load(ordering: .relaxed)) / 1e6,
    ])
}

func contentionCases() -> [BenchmarkCase] {
  let observers = 10
  let duration: UInt64 = 200_000_000
  let subjects: [(String, String, (Int) -> any ContentionSubject)] = [
    ("contention.mutex", "Baseline: Mutex snapshot of closures, append/remove", MutexSubject.init),
    (
      "contention.nc", "Foundation NotificationCenter post / addObserver+removeObserver",
      FoundationSubject.init
    ),
    ("contention.event", "EventTyped Event.post / subscribe+cancel", EventSubject.init),
    (
      "contention.broadcaster", "EventBroadcast notify / register+unregister",
      BroadcasterSubject.init
    ),
  ]
  return subjects.map { family, title, make in
    BenchmarkCase(
      family, observers: observers,
      title: "\(title): 2 posters + 1 churner, wall ns per post",
      allocations: .process,
      comparisons: family.hasSuffix("mutex") || family.hasSuffix(".nc")
        ? .none : Comparisons(mutex: "contention.mutex", foundation: "contention.nc"),
      body: .fixed(unit: "ns/post") {
        contentionSample(make(observers), duration: duration)
      })
  }
}

/// Keeps the observers of a progress sample alive until every work item has run.
private final class Keeper: Sendable {
  let objects = Mutex<[AnyObject]>([])
  let tokens = Mutex<[ObserverToken]>([])
}

/// 1,000 work items on `DispatchQueue.global()`, each registering a new observer and notifying
/// all of them; the observers live until every item is done, so the last notifications reach
/// up to 1,000 observers.
private func progressSample(_ item: @escaping @Sendable (Keeper) -> Void) -> FixedSample {
  let items = 1000
  let keeper = Keeper()
  let group = DispatchGroup()
  let start = now()
  for _ in 0..<items {
    DispatchQueue.global().async(group: group) { item(keeper) }
  }
  group.wait()
  let elapsed = now() - start
  return FixedSample(value: Double(elapsed) / 1e6, operations: items)
}

func progressCases() -> [BenchmarkCase] {
  let againstFoundation = Comparisons(foundation: "progress.nc")
  return [
    BenchmarkCase(
      "progress.nc", observers: nil,
      title: "Foundation: 1,000 global-queue items, each addObserver + post",
      allocations: .process,
      body: .fixed(unit: "ms") {
        let center = NotificationCenter()
        let sample = progressSample { keeper in
          let token = center.addObserver(forName: benchName, object: nil, queue: nil) { _ in
            bench_consume(1)
          }
          keeper.tokens.withLock { $0.append(ObserverToken(token: token)) }
          center.post(name: benchName, object: nil)
        }
        return sample
      }),
    BenchmarkCase(
      "progress.broadcaster", observers: nil,
      title: "EventBroadcast: 1,000 global-queue items, each register + notify",
      allocations: .process, comparisons: againstFoundation,
      body: .fixed(unit: "ms") {
        let broadcaster = Broadcaster()
        return progressSample { keeper in
          let target = Target()
          keeper.objects.withLock { $0.append(target) }
          broadcaster.register((any BenchObserver).self, observer: target)
          broadcaster.notify((any BenchObserver).self) { $0.receive(1) }
        }
      }),
    BenchmarkCase(
      "progress.event", observers: nil,
      title: "EventTyped: 1,000 global-queue items, each register(_:function:) + post",
      allocations: .process, comparisons: againstFoundation,
      body: .fixed(unit: "ms") {
        let event = Event<Int>()
        return progressSample { keeper in
          let target = Target()
          keeper.objects.withLock { $0.append(target) }
          event.register(target, function: Target.receive)
          event.post(1)
        }
      }),
  ]
}
