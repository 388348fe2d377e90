import EventBroadcast
import Foundation
import Testing

private protocol DescribedUpdate {
  func update()
}

private protocol DescribedTheme {
  func apply()
}

private final class DescribedView: DescribedUpdate, DescribedTheme, Sendable {
  func update() {}
  func apply() {}
}

private final class DescribedCache: DescribedUpdate, Sendable {
  func update() {}
}

@Suite("Broadcaster: String(reflecting:) lists who observes what, and from where")
struct BroadcasterDebugDescriptionTests {
  private let file = "EventBroadcastTests/BroadcasterDebugDescriptionTests.swift"

  @Test("a broadcaster with no registrations says so")
  func empty() {
    #expect(String(reflecting: Broadcaster()) == "Broadcaster, no registrations")
  }

  @Test("each registration is listed under its protocol, in call order, with its delivery")
  func registrations() {
    let broadcaster = Broadcaster()
    let view = DescribedView()
    let cache = DescribedCache()
    let viewLine = #line + 1
    broadcaster.register((any DescribedUpdate).self, observer: view)
    let cacheLine = #line + 1
    broadcaster.register(
      (any DescribedUpdate).self, observer: cache, delivery: .queue(DispatchQueue(label: "cache")))
    let themeLine = #line + 1
    broadcaster.register((any DescribedTheme).self, observer: view, priority: 5)
    #expect(
      String(reflecting: broadcaster) == """
        Broadcaster, 3 registrations:
          DescribedUpdate: observer DescribedView, synchronous, \(file):\(viewLine)
          DescribedUpdate: observer DescribedCache, queue "cache", \(file):\(cacheLine)
          DescribedTheme: observer DescribedView, synchronous, priority 5, \(file):\(themeLine)
        """)
    withExtendedLifetime((view, cache)) {}
  }

  @Test("a registration made on the main actor shows its isolation; released observers go")
  @MainActor
  func isolationAndRelease() {
    let broadcaster = Broadcaster()
    let view = DescribedView()
    var cache: DescribedCache? = DescribedCache()
    broadcaster.register((any DescribedUpdate).self, observer: cache!)
    let line = #line + 1
    broadcaster.register((any DescribedUpdate).self, observer: view)
    cache = nil
    #expect(
      String(reflecting: broadcaster) == """
        Broadcaster, 1 registration:
          DescribedUpdate: observer DescribedView, isolated to MainActor, \(file):\(line)
        """)
    withExtendedLifetime(view) {}
  }
}
