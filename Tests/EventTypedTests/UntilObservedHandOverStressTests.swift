import Dispatch
import EventTestSupport
import EventTyped
import Foundation
import Testing

@Suite("untilObserved hand-over Stress")
struct UntilObservedHandOverStressTests {
  @Test("a cancel racing with the queued replay splits the held posts, each delivered once")
  func cancelRacingWithReplay() {
    for round in 0..<300 {
      let queue = DispatchQueue(label: "untilObserved.handOver.stress")
      let event = Event<Int>(delivery: .queue(queue), replay: .untilObserved)
      let posts = Array(0..<20)
      for value in posts { event.post(value) }
      let first = Recorder<Int>()
      let token = event.subscribe { first.record($0) }
      let cancelled = Signal()
      Thread.detachNewThread {
        token.cancel()
        cancelled.fire()
      }
      #expect(cancelled.wait())
      // Posts made once nothing listens are held behind those given back.
      event.post(20)
      #expect(drain(queue))
      let second = Recorder<Int>()
      let next = event.subscribe { second.record($0) }
      #expect(drain(queue))
      next.cancel()
      #expect(first.values + second.values == posts + [20], "round \(round)")
    }
  }

  @Test("an observer dying while its queued replay runs leaves the rest held, each once")
  func observerDyingDuringReplay() {
    final class Screen: Sendable {
      let log: Recorder<Int>
      init(_ log: Recorder<Int>) { self.log = log }
      func show(_ value: Int) { log.record(value) }
    }
    for round in 0..<300 {
      let queue = DispatchQueue(label: "untilObserved.handOver.death")
      let event = Event<Int>(delivery: .queue(queue), replay: .untilObserved)
      let posts = Array(0..<20)
      for value in posts { event.post(value) }
      let first = Recorder<Int>()
      var screen: Screen? = Screen(first)
      event.register(screen!, function: Screen.show)
      let released = Signal()
      // Moved to another thread, which drops the last reference while the replay runs.
      let owner = Lock<Screen?>(screen)
      screen = nil
      Thread.detachNewThread {
        let last = owner.withLock { $0.take() }
        _ = last
        released.fire()
      }
      #expect(released.wait())
      #expect(drain(queue))
      let second = Recorder<Int>()
      let next = event.subscribe { second.record($0) }
      #expect(drain(queue))
      next.cancel()
      #expect(first.values + second.values == posts, "round \(round)")
    }
  }
}
