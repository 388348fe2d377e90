import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// One poster's payload: who posted it, and its place in that poster's sequence.
private struct Post: Sendable, Equatable {
  let poster: Int
  let index: Int
}

@Suite("Replay Stress")
struct ReplayStressTests {
  static let posters = 2
  static let postsEach = 2_000

  /// Checks that `received` holds, for each poster, a contiguous run of its posts in order
  /// (no gap, no duplicate), ending with its last post; with `complete`, starting at its first.
  private static func check(_ received: [Post], complete: Bool) {
    for poster in 0..<posters {
      let indices = received.filter { $0.poster == poster }.map(\.index)
      let start = complete ? 0 : (indices.first ?? postsEach)
      #expect(
        indices == Array(start..<postsEach),
        "poster \(poster): \(indices.count) received, first \(indices.first ?? -1)")
    }
  }

  @Test(
    "registrations made while other threads post receive each payload once, in order",
    arguments: [Replay.last(posters * postsEach), .latest])
  func noGapNoDuplicate(_ replay: Replay) {
    let event = Event<Post>(replay: replay)
    let logs = (0..<6).map { _ in Recorder<Post>() }
    let tokens = Lock<[Subscription]>([])
    DispatchQueue.concurrentPerform(iterations: Self.posters + logs.count) { worker in
      if worker < Self.posters {
        for index in 0..<Self.postsEach { event.post(Post(poster: worker, index: index)) }
      } else {
        let log = logs[worker - Self.posters]
        let token = event.subscribe { log.record($0) }
        tokens.withLock { $0.append(token) }
      }
    }
    for log in logs { Self.check(log.values, complete: replay != .latest) }
    withExtendedLifetime(tokens) {}
  }

  @Test("an untilObserved event loses nothing while a first registration races the posters")
  func untilObservedRace() {
    let event = Event<Post>(replay: .untilObserved)
    let log = Recorder<Post>()
    let token = Lock<Subscription?>(nil)
    DispatchQueue.concurrentPerform(iterations: Self.posters + 1) { worker in
      if worker < Self.posters {
        for index in 0..<Self.postsEach { event.post(Post(poster: worker, index: index)) }
      } else {
        token.withLock { $0 = event.subscribe { log.record($0) } }
      }
    }
    Self.check(log.values, complete: true)
    withExtendedLifetime(token) {}
  }
}
