import EventTestSupport
import Testing

@testable import EventCore

private final class Screen: Sendable {
  let name: String

  init(name: String) { self.name = name }
}

/// A payload passed indirectly at a generic abstraction, with a reference inside.
private struct Download: Sendable, Equatable {
  let name: String
  let screen: Screen

  static func == (lhs: Download, rhs: Download) -> Bool {
    lhs.name == rhs.name && lhs.screen === rhs.screen
  }
}

/// Erases `handler`'s observer type in generic code, as an entry's initializer does, and calls
/// it with `object`.
private func callErased<Observer: AnyObject, Payload>(
  _ handler: @escaping (Observer, Payload) -> Void, with object: AnyObject, _ payload: Payload
) {
  BoundHandler(body: handler).erased(object, payload)
}

/// The argument of `BoundHandler`: a handler of an observer, stored and called as a handler of
/// `AnyObject`, receives the very object and payload it is called with. If a toolchain
/// represented a class-constrained type parameter otherwise, these fail.
@Suite("BoundHandler erasure")
struct BoundHandlerTests {
  @Test("an erased handler has the layout of the handler of its observer's type")
  func layout() {
    #expect(
      MemoryLayout<BoundHandler<Screen, Download>>.size
        == MemoryLayout<BoundHandler<AnyObject, Download>>.size)
    #expect(
      MemoryLayout<IsolatedHandler.IsolatedBoundHandler<Screen, Download>>.size
        == MemoryLayout<BoundHandler<AnyObject, Download>>.size)
  }

  @Test("an erased handler receives the object and the payload it is called with")
  func receivesItsObserver() {
    let screen = Screen(name: "downloads")
    let other = Screen(name: "other")
    let received = Recorder<String>()
    callErased(
      { (observer: Screen, download: Download) in
        received.record(
          "\(observer.name) \(observer === screen) \(download == Download(name: "a", screen: other))"
        )
      }, with: screen, Download(name: "a", screen: other))
    #expect(received.values == ["downloads true true"])
  }

  @MainActor
  @Test("an isolated handler erased to AnyObject runs with its observer on its actor")
  func isolatedReceivesItsObserver() {
    let screen = Screen(name: "main")
    let received = Recorder<String>()
    let handler: @isolated(any) (Screen, Int) -> Void = { @MainActor observer, value in
      MainActor.assertIsolated()
      received.record("\(observer.name) \(observer === screen) \(value)")
    }
    #expect(handler.isolation === MainActor.shared)
    IsolatedHandler.callable(erasingObserver: handler)(screen, 7)
    #expect(received.values == ["main true 7"])
  }

  @Test("an entry hands its handler the observer it was registered with")
  func entryCallsWithItsObserver() {
    let screen = Screen(name: "entry")
    let received = Recorder<String>()
    let entry = ObserverEntry<Download>(observer: screen, keyed: true, delivery: .synchronous) {
      (observer: Screen, download: Download) in
      received.record("\(observer === screen) \(download.name)")
    }
    #expect(entry.invoke(Download(name: "b", screen: screen)))
    #expect(received.values == ["true b"])
  }
}
