import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

private struct Refusal: Error, Equatable {
  let value: Int
}

private func refuse(_ value: Int) throws {
  if value < 0 { throw Refusal(value: value) }
}

/// An object whose handler may throw.
private final class Ledger: Sendable {
  let saved = Recorder<Int>()

  func save(_ value: Int) throws {
    try refuse(value)
    saved.record(value)
  }
}

/// An actor whose handler may throw.
private actor Vault {
  var stored: [Int] = []

  func store(_ value: Int) throws {
    try refuse(value)
    stored.append(value)
  }
}

/// A `@MainActor` screen whose throwing handlers touch its state.
@MainActor
private final class RefusingScreen {
  var shown: [Int] = []
  var offMainActor = 0
  var tokens = Set<Subscription>()

  func show(_ value: Int) throws {
    if !MainActorDetection.isOnMainActor { offMainActor += 1 }
    try refuse(value)
    shown.append(value)
  }

  func start(_ event: Event<Int>) {
    event.subscribe { value in try self.show(value) }.store(in: &tokens)
    event.register(self) { screen, value in try screen.show(value) }
  }
}

/// The messages an event would print to standard error.
private func capturePrinted<Payload>(_ event: Event<Payload>) -> Recorder<String> {
  let printed = Recorder<String>()
  event.writeUnobservedErrors { printed.record($0) }
  return printed
}

@Suite("Handlers that throw")
struct ThrowingHandlerTests {
  @Test("a throwing handler does not stop the others, and errors receives where it was written")
  func throwDoesNotStopOthers() throws {
    let event = Event<Int>()
    let log = Recorder<String>()
    let failures = Recorder<HandlerError>()
    let watch = event.errors.subscribe { failures.record($0) }
    let before = event.subscribe { log.record("before \($0)") }
    let (throwing, line) = (event.subscribe { value in try refuse(value) }, #line)
    let after = event.subscribe { log.record("after \($0)") }
    event.post(-1)
    event.post(2)
    #expect(log.values == ["before -1", "after -1", "before 2", "after 2"])
    let failure = try #require(failures.values.first)
    #expect(failures.count == 1)
    #expect(failure.error as? Refusal == Refusal(value: -1))
    #expect(failure.fileID == "EventTypedTests/ThrowingHandlerTests.swift")
    #expect(failure.line == line)
    #expect(
      "\(failure)" == "EventTypedTests/ThrowingHandlerTests.swift:\(line): Refusal(value: -1)")
    _ = (watch, before, throwing, after)
  }

  @Test("an observer's throwing handler reports to errors, and the observer is still held weakly")
  func observerHandlerThrows() throws {
    let event = Event<Int>()
    let failures = Recorder<HandlerError>()
    let watch = event.errors.subscribe { failures.record($0) }
    var store: Ledger? = Ledger()
    let weakStore = Weak(store)
    let line = #line + 1
    event.register(try #require(store)) { store, value in try store.save(value) }
    event.post(1)
    event.post(-2)
    #expect(store?.saved.values == [1])
    #expect(failures.values.map(\.line) == [line])
    #expect(failures.values.first?.error as? Refusal == Refusal(value: -2))
    store = nil
    #expect(weakStore.object == nil)
    event.post(-3)
    #expect(failures.count == 1)
    #expect(event.observerCount == 0)
    _ = watch
  }

  @Test("an actor's throwing handler runs on the actor and reports to errors")
  func actorHandlerThrows() async throws {
    let event = Event<Int>()
    let failures = Recorder<HandlerError>()
    let reported = Signal()
    let watch = event.errors.subscribe { failure in
      failures.record(failure)
      reported.fire()
    }
    let archive = Vault()
    let line = #line + 1
    event.register(archive) { archive, value in try archive.store(value) }
    event.post(1)
    event.post(-1)
    event.post(2)
    #expect(await reported.arrival())
    await event.flush()
    #expect(await archive.stored == [1, 2])
    #expect(failures.values.map(\.line) == [line])
    _ = watch
  }

  @Test("with nobody observing errors, a registration's first error is printed, and only that")
  func standardErrorOncePerRegistration() {
    let event = Event<Int>()
    let printed = capturePrinted(event)
    let (first, firstLine) = (event.subscribe { value in try refuse(value) }, #line)
    let (second, secondLine) = (event.subscribe { value in try refuse(value - 1) }, #line)
    event.post(-1)
    event.post(-2)
    event.post(0)
    let messages = printed.values
    #expect(messages.count == 2)
    #expect(messages.first?.contains("ThrowingHandlerTests.swift:\(firstLine) threw") == true)
    #expect(messages.last?.contains("ThrowingHandlerTests.swift:\(secondLine) threw") == true)
    #expect(messages.allSatisfy { $0.contains("Refusal(value:") && $0.hasSuffix("\n") })
    _ = (first, second)
  }

  @Test("once errors is observed, nothing is printed; once that ends, printing resumes")
  func observedErrorsAreNotPrinted() {
    let event = Event<Int>()
    let printed = capturePrinted(event)
    let failures = Recorder<HandlerError>()
    var watch: Subscription? = event.errors.subscribe { failures.record($0) }
    let throwing = event.subscribe { value in try refuse(value) }
    event.post(-1)
    #expect(printed.values.isEmpty)
    #expect(failures.count == 1)
    watch?.cancel()
    watch = nil
    event.post(-2)
    #expect(printed.count == 1)
    #expect(failures.count == 1)
    _ = throwing
  }

  @Test("a throwing handler of errors reports to the errors of errors, and nothing loops")
  func errorsOfErrors() {
    let event = Event<Int>()
    let printed = capturePrinted(event.errors)
    let watch = event.errors.subscribe { failure in throw failure }
    let throwing = event.subscribe { value in try refuse(value) }
    event.post(-1)
    event.post(-2)
    #expect(printed.count == 1)
    let nested = Recorder<HandlerError>()
    let nestedWatch = event.errors.errors.subscribe { nested.record($0) }
    event.post(-3)
    #expect(nested.count == 1)
    #expect((nested.values.first?.error as? HandlerError)?.error as? Refusal == Refusal(value: -3))
    _ = (watch, throwing, nestedWatch)
  }

  @Test("a throwing handler that posts again under .queued does not disturb the post")
  func throwingHandlerReenters() {
    let event = Event<Int>(reentrancy: .queued)
    let log = Recorder<String>()
    let failures = Recorder<HandlerError>()
    let watch = event.errors.subscribe { failures.record($0) }
    let token = event.subscribe { value in
      if value < 0 { event.post(-value) }
      try refuse(value)
    }
    let later = event.subscribe { log.record("later \($0)") }
    event.post(-4)
    #expect(log.values == ["later -4", "later 4"])
    #expect(failures.values.map { $0.error as? Refusal } == [Refusal(value: -4)])
    _ = (watch, token, later)
  }

  @MainActor
  @Test("a throwing closure written on the main actor runs there, and reports there")
  func mainActorThrowingHandlers() async {
    let event = Event<Int>()
    let screen = RefusingScreen()
    screen.start(event)
    let failures = Recorder<Bool>()
    let watch = event.errors.subscribe { _ in failures.record(MainActorDetection.isOnMainActor) }
    #expect(onOtherThread { event.post(-1) })
    #expect(onOtherThread { event.post(3) })
    await event.flush()
    #expect(screen.shown == [3, 3])
    #expect(screen.offMainActor == 0)
    #expect(failures.values == [true, true])
    _ = watch
  }

  @Test("an async throwing handler keeps running after a throw, and its errors reach errors")
  func asyncThrowingSubscribe() async {
    let event = Event<Int>()
    let failures = Recorder<HandlerError>()
    let watch = event.errors.subscribe { failures.record($0) }
    let handled = Recorder<Int>()
    let line = #line + 1
    let token = event.subscribe { value async throws in
      await Task.yield()
      try refuse(value)
      handled.record(value)
    }
    event.post(1)
    event.post(-1)
    event.post(2)
    await event.flush()
    #expect(handled.values == [1, 2])
    #expect(failures.values.map(\.line) == [line])
    #expect(failures.values.first?.error as? Refusal == Refusal(value: -1))
    _ = (watch, token)
  }

  @Test("non-throwing closures keep compiling as before, and a `try` selects the throwing form")
  func overloadSelection() async {
    let event = Event<Int>()
    let store = Ledger()
    let archive = Vault()
    let plainLog = Recorder<Int>()
    var tokens = Set<Subscription>()
    event.subscribe { plainLog.record($0) }.store(in: &tokens)
    event.subscribe { value in try store.save(value) }.store(in: &tokens)
    event.subscribe { value in await Task.yield() }.store(in: &tokens)
    event.subscribe { value async throws in try await archive.store(value) }.store(in: &tokens)
    event.register(store) { store, value in store.saved.record(value * 10) }
    event.register(archive) { archive, value in try archive.store(value * 100) }
    let record: @Sendable (Int) -> Void = { plainLog.record($0) }
    event.subscribe(record).store(in: &tokens)
    event.post(1)
    await event.flush()
    #expect(plainLog.values == [1, 1])
    #expect(store.saved.values == [1, 10])
    #expect(await archive.stored.sorted() == [1, 100])
  }
}
