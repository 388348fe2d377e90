import EventTestSupport
import EventTyped
import Foundation
import Testing

private final class DescribedScreen: Sendable {
  func show(_ value: String) {}
}

private enum DescribedAnalytics {
  @Sendable static func log(_ value: String) {}
}

private actor DescribedStore {}

@Suite("Event: String(reflecting:) lists who observes it, and from where")
struct EventDebugDescriptionTests {
  private let file = "EventTypedTests/EventDebugDescriptionTests.swift"

  @Test("an event with no registrations says so in its header")
  func emptyEvent() {
    #expect(String(reflecting: Event<String>()) == "Event<String>, no registrations")
    #expect(String(reflecting: Event<(String, Int)>()) == "Event<(String, Int)>, no registrations")
  }

  @Test("every kind of registration is listed, in call order, with where it runs and was written")
  func everyKind() async {
    let event = Event<String>()
    let screen = DescribedScreen()
    let store = DescribedStore()
    let closureLine = #line + 1
    let token = event.subscribe { _ in }
    let observerLine = #line + 1
    event.register(screen) { _, _ in }
    let typeLine = #line + 1
    event.register(DescribedAnalytics.self, function: DescribedAnalytics.log)
    let onceLine = #line + 1
    event.subscribeOnce { _ in }
    let asyncLine = #line + 1
    let asyncToken = event.subscribe { @MainActor _ async in }
    let actorLine = #line + 1
    event.register(store) { _, _ in }
    #expect(
      String(reflecting: event) == """
        Event<String>, 6 registrations:
          closure, synchronous, \(file):\(closureLine)
          observer DescribedScreen, synchronous, \(file):\(observerLine)
          type DescribedAnalytics, synchronous, \(file):\(typeLine)
          once, synchronous, \(file):\(onceLine)
          async, isolated to MainActor, \(file):\(asyncLine)
          actor DescribedStore, isolated to DescribedStore, \(file):\(actorLine)
        """)
    withExtendedLifetime((token, asyncToken, screen, store)) {}
  }

  @Test("an unbound method names its observer's type, and the event's delivery is shown")
  func methodAndQueue() {
    let event = Event<String>(delivery: .queue(DispatchQueue(label: "saves")))
    let screen = DescribedScreen()
    let line = #line + 1
    event.register(screen, function: DescribedScreen.show)
    #expect(
      String(reflecting: event) == """
        Event<String>, 1 registration:
          observer DescribedScreen, queue "saves", \(file):\(line)
        """)
    withExtendedLifetime(screen) {}
  }

  @Test("a registration made on the main actor shows its isolation, and a priority is shown")
  @MainActor
  func mainActorAndPriority() {
    let event = Event<Int>()
    let screen = DescribedScreen()
    let line = #line + 1
    event.register(screen, priority: 10) { _, _ in }
    let subscribeLine = #line + 1
    let token = event.subscribe(priority: -1) { _ in }
    #expect(
      String(reflecting: event) == """
        Event<Int>, 2 registrations:
          observer DescribedScreen, isolated to MainActor, priority 10, \(file):\(line)
          closure, isolated to MainActor, priority -1, \(file):\(subscribeLine)
        """)
    withExtendedLifetime((screen, token)) {}
  }

  @Test("cancelled registrations and released observers are not listed")
  func onlyLiveRegistrations() {
    let event = Event<String>()
    var screen: DescribedScreen? = DescribedScreen()
    event.register(screen!) { _, _ in }
    let cancelled = event.subscribe { _ in }
    cancelled.cancel()
    let line = #line + 1
    let kept = event.subscribe { _ in }
    screen = nil
    #expect(
      String(reflecting: event) == """
        Event<String>, 1 registration:
          closure, synchronous, \(file):\(line)
        """)
    withExtendedLifetime(kept) {}
  }

  @Test("a values stream is listed as a stream the package made, with no location")
  func valuesStream() {
    let event = Event<String>()
    let stream = event.values
    #expect(
      String(reflecting: event) == """
        Event<String>, 1 registration:
          stream, synchronous
        """)
    withExtendedLifetime(stream) {}
  }
}
