import MallocCounter
import Synchronization

/// A weak reference to a target, as a weak-observer registry without the Events core keeps it.
///
/// `@unchecked Sendable`: `target` is written once, in `init`; the runtime makes weak loads
/// atomic.
final class WeakTargetBox: @unchecked Sendable {
  private(set) weak var target: Target?

  init(_ target: Target) {
    self.target = target
  }
}

/// A closure with the in-flight count that "cancel means cancelled" needs: one atomic word,
/// entered and left around each call, as the Events core does.
final class CountedHandler: Sendable {
  let state = Atomic<Int>(0)
  let body: @Sendable (Int) -> Void

  init(_ body: @escaping @Sendable (Int) -> Void) {
    self.body = body
  }

  @inline(__always)
  func call(_ value: Int) {
    let previous = state.wrappingAdd(4, ordering: .acquiringAndReleasing).oldValue
    if previous & 1 == 0 { body(value) }
    state.wrappingSubtract(4, ordering: .releasing)
  }
}

/// The limit: what delivering to `n` observers costs with no library at all.
func baselineCases() -> [BenchmarkCase] {
  observerCounts.flatMap { n -> [BenchmarkCase] in
    [
      BenchmarkCase(
        "baseline.array", observers: n,
        title: "Plain array of closures (no lock, no weak, not thread-safe)",
        body: .loop {
          let handlers = [@Sendable (Int) -> Void](repeating: handler, count: n)
          return Loop { iterations in
            for value in 0..<iterations {
              for handler in handlers { handler(value) }
            }
          }
        }),
      BenchmarkCase(
        "baseline.mutex", observers: n,
        title: "Mutex snapshot of closures: lock, copy the array, unlock, call each",
        body: .loop {
          let state = Mutex([@Sendable (Int) -> Void](repeating: handler, count: n))
          return Loop { iterations in
            for value in 0..<iterations {
              let snapshot = state.withLock { $0 }
              for handler in snapshot { handler(value) }
            }
          }
        }),
      BenchmarkCase(
        "baseline.counted", observers: n,
        title: "Mutex snapshot of closures, each call inside an atomic in-flight count "
          + "(the cost of the design Events dropped: cancel waiting for running calls)",
        body: .loop {
          let handlers = (0..<n).map { _ in CountedHandler(handler) }
          // Unretained references, kept alive by `handlers`: the floor is the count's two
          // atomic operations, without a retain and release of each handler object on top.
          let state = Mutex(handlers.map(Unmanaged.passUnretained))
          return Loop { iterations in
            for value in 0..<iterations {
              let snapshot = state.withLock { $0 }
              for handler in snapshot {
                handler._withUnsafeGuaranteedRef { $0.call(value) }
              }
            }
            withExtendedLifetime(handlers) {}
          }
        }),
      BenchmarkCase(
        "baseline.weak", observers: n,
        title: "Mutex snapshot of weak boxes: load, nil check, call the method",
        body: .loop {
          let targets = makeTargets(n)
          let state = Mutex(targets.map(WeakTargetBox.init))
          return Loop { iterations in
            for value in 0..<iterations {
              let snapshot = state.withLock { $0 }
              for box in snapshot {
                if let target = box.target { target.receive(value) }
              }
            }
            withExtendedLifetime(targets) {}
          }
        }),
    ]
  }
}
