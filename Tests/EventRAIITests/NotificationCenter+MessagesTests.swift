import EventRAII
import EventTestSupport
import Foundation
import Testing

/// The subject of the messages below.
private final class Document: Sendable {}

// The messages API is new in the 26 SDKs, and the test targets deploy to earlier systems; Swift
// Testing skips a test whose availability the running system does not meet.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
private struct DidSave: NotificationCenter.AsyncMessage {
  typealias Subject = Document
  let path: String
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
private struct DidSelect: NotificationCenter.MainActorMessage {
  typealias Subject = Document
  let index: Int
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<DidSelect> {
  fileprivate static var didSelect: Self { .init() }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<DidSave> {
  fileprivate static var didSave: Self { .init() }
}

@Suite("Typed messages")
struct TypedMessageTests {
  @Test("an asynchronous message reaches the handler until the token is cancelled")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func asyncMessageUntilCancelled() async {
    let center = NotificationCenter()
    let paths = Recorder<String>()
    let delivered = Signal()
    let token = center.observe(for: DidSave.self) { message in
      paths.record(message.path)
      delivered.fire()
    }
    center.post(DidSave(path: "a"))
    #expect(await delivered.arrival())
    token.cancel()

    let witness = Signal()
    let other = center.observe(for: DidSave.self) { _ in witness.fire() }
    center.post(DidSave(path: "b"))
    #expect(await witness.arrival())
    #expect(paths.values == ["a"])
    other.cancel()
  }

  @Test("releasing the token of an asynchronous message ends the observation")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func asyncMessageReleasedToken() async {
    let center = NotificationCenter()
    let calls = Counter()
    var token: Subscription? = center.observe(for: DidSave.self) { _ in calls.increment() }
    #expect(token != nil)
    token = nil

    let witness = Signal()
    let other = center.observe(for: DidSave.self) { _ in witness.fire() }
    center.post(DidSave(path: "a"))
    #expect(await witness.arrival())
    #expect(calls.count == 0)
    other.cancel()
  }

  @Test("an asynchronous message observed by identifier is filtered by its subject")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func asyncMessageBySubject() async {
    let center = NotificationCenter()
    let watched = Document()
    let paths = Recorder<String>()
    let delivered = Signal()
    let token = center.observe(of: watched, for: .didSave) { message in
      paths.record(message.path)
      delivered.fire()
    }
    center.post(DidSave(path: "other"), subject: Document())
    center.post(DidSave(path: "watched"), subject: watched)
    #expect(await delivered.arrival())
    let witness = Signal()
    let other = center.observe(for: DidSave.self) { _ in witness.fire() }
    center.post(DidSave(path: "later"), subject: Document())
    #expect(await witness.arrival())
    #expect(paths.values == ["watched"])
    token.cancel()
    other.cancel()
  }

  @Test("an asynchronous handler isolated to an actor does not start when cancelled on its way")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func asyncMessageCancelledWhileHopping() async {
    // The observation's check must run on the handler's actor, immediately before the call: a
    // cancel that returns while the delivery waits for that actor keeps the handler from
    // starting.
    let center = NotificationCenter()
    let calls = Counter()
    let token = center.observe(for: DidSave.self) { @HeldActor _ in calls.increment() }
    center.post(DidSave(path: "a"))
    #expect(await HeldActor.executor.enqueued.arrival(), "the delivery never reached the actor")
    token.cancel()
    HeldActor.executor.runEnqueued()
    #expect(calls.count == 0)
  }

  @MainActor
  @Test("a main-actor message runs the handler within post until the token is cancelled")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func mainActorMessageUntilCancelled() {
    let center = NotificationCenter()
    let indices = Recorder<Int>()
    let token = center.observe(for: DidSelect.self) { message in indices.record(message.index) }
    center.post(DidSelect(index: 1))
    #expect(indices.values == [1])
    token.cancel()
    center.post(DidSelect(index: 2))
    #expect(indices.values == [1])
  }

  @MainActor
  @Test("a main-actor message observed by identifier is filtered by its subject")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func mainActorMessageBySubject() {
    let center = NotificationCenter()
    let watched = Document()
    let indices = Recorder<Int>()
    let token = center.observe(of: watched, for: .didSelect) { message in
      indices.record(message.index)
    }
    center.post(DidSelect(index: 1), subject: Document())
    center.post(DidSelect(index: 2), subject: watched)
    #expect(indices.values == [2])
    token.cancel()
  }

  @Test("releasing a message token releases its center")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func releasedTokenReleasesCenter() {
    // Foundation may autorelease the center while it registers an observer.
    let weakCenter = withAutoreleasePool {
      var center: NotificationCenter? = NotificationCenter()
      let weakCenter = Weak(center)
      var token = center?.observe(for: DidSave.self) { _ in }
      center = nil
      token?.cancel()
      #expect(token?.isCancelled == true)
      token = nil
      return weakCenter
    }
    #expect(weakCenter.object == nil)
  }
}
