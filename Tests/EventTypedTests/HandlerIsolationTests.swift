import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// The screen of the issue that asked for this: a `@MainActor` class in Swift 6 mode whose
/// handlers update its state, registered in every form, with no `delivery: .mainActor`.
@MainActor
private final class Screen {
  var log: [String] = []
  var offMainActor = 0
  var tokens = Set<Subscription>()

  func record(_ entry: String) {
    if !MainActorDetection.isOnMainActor { offMainActor += 1 }
    log.append(entry)
  }

  func show(_ value: String) { record("e \(value)") }

  func start(_ event: Event<String>, _ names: Event<String>) {
    event.subscribe { value in self.record("a \(value)") }.store(in: &tokens)
    event.register(self) { screen, value in screen.record("c \(value)") }
    names.register(self, function: Screen.show)
  }

  func startWithSelf(_ names: Event<String>) {
    names.register(self, function: Self.show)
  }
}

/// Nonisolated code: its handlers keep running where the delivery says.
private final class Worker: Sendable {
  let threads = Recorder<Bool>()
  func work(_ value: Int) { threads.record(MainActorDetection.isOnMainActor) }
}

/// An actor whose method is registered as an observer.
private actor Auditor {
  var orders: [Int] = []
  func record(_ order: Int) { orders.append(order) }
}

@Suite("Handler isolation")
struct HandlerIsolationTests {
  @MainActor
  @Test("handlers written on the main actor run there, in post order, for background posts")
  func mainActorForms() async {
    let event = Event<String>()
    let names = Event<String>()
    let screen = Screen()
    screen.start(event, names)
    let posted = onOtherThread {
      event.post("bg1")
      names.post("bg1")
      event.post("bg2")
    }
    #expect(posted)
    #expect(screen.log.isEmpty, "post did not run them on the background thread")
    await drainMainQueue()
    #expect(screen.log == ["a bg1", "c bg1", "e bg1", "a bg2", "c bg2"])
    #expect(screen.offMainActor == 0)
  }

  @MainActor
  @Test("a post made on the main actor runs a main-actor handler inline")
  func inlineOnMainActor() {
    let event = Event<String>()
    let screen = Screen()
    screen.start(event, Event<String>())
    event.post("main")
    #expect(screen.log == ["a main", "c main"])
  }

  @MainActor
  @Test("a post on the main actor does not overtake an earlier background post still queued")
  func orderAcrossThreads() async {
    let event = Event<String>()
    let screen = Screen()
    screen.start(event, Event<String>())
    #expect(onOtherThread { event.post("A (background, first)") })
    event.post("B (main actor, second)")
    await drainMainQueue()
    #expect(
      screen.log == [
        "a A (background, first)", "c A (background, first)", "a B (main actor, second)",
        "c B (main actor, second)",
      ])
  }

  @MainActor
  @Test("Self.method registers like the class's own method")
  func selfMethod() async {
    let names = Event<String>()
    let screen = Screen()
    screen.startWithSelf(names)
    #expect(onOtherThread { names.post("x") })
    await drainMainQueue()
    #expect(screen.log == ["e x"])
    #expect(screen.offMainActor == 0)
  }

  @MainActor
  @Test("isolation wins over an explicit delivery")
  func isolationWins() async {
    let queue = DispatchQueue(label: "ignored")
    let event = Event<String>(delivery: .queue(queue))
    let screen = Screen()
    screen.start(event, Event<String>())
    #expect(onOtherThread { event.post("q") })
    #expect(drain(queue))
    await drainMainQueue()
    #expect(screen.log == ["a q", "c q"])
    #expect(screen.offMainActor == 0)
  }

  @Test("a handler written in nonisolated code still runs synchronously on the posting thread")
  func nonisolatedSynchronous() {
    let event = Event<Int>()
    let worker = Worker()
    let log = Recorder<Int>()
    let token = event.subscribe { log.record($0) }
    event.register(worker, function: Worker.work)
    let posted = onOtherThread {
      event.post(1)
      #expect(log.values == [1], "ran before post returned")
    }
    #expect(posted)
    #expect(worker.threads.values == [false])
    withExtendedLifetime(token) {}
  }

  @Test("a handler isolated to another global actor runs on it, in post order")
  func otherGlobalActor() async {
    let event = Event<Int>()
    let log = Recorder<Int>()
    let done = Signal()
    let token = event.subscribe { @IsolationTestActor value in
      IsolationTestActor.shared.assertIsolated()
      log.record(value)
      if value == 99 { done.fire() }
    }
    Thread.detachNewThread { for value in 0..<100 { event.post(value) } }
    #expect(await done.arrival())
    #expect(log.values == Array(0..<100))
    withExtendedLifetime(token) {}
  }
}

@globalActor
private actor IsolationTestActor {
  static let shared = IsolationTestActor()
}
