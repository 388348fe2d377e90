import EventBroadcast
import EventCore
import EventTestSupport
import Foundation
import Testing

private protocol TitleObserver {
  func titleDidChange(to title: String)
}

/// SwiftNotificationCenter's pattern in Swift 6 UI code: a `@MainActor` screen conforms
/// through an isolated conformance (SE-0470), the compiler's own fix-it.
@MainActor private final class TitleScreen {
  var titles: [String] = []
  let onMainActor = Recorder<Bool>()
  let arrived = Signal()
}

extension TitleScreen: @MainActor TitleObserver {
  func titleDidChange(to title: String) {
    onMainActor.record(MainActorDetection.isOnMainActor)
    titles.append(title)
    arrived.fire()
  }
}

/// A protocol isolated to the main actor, the other pattern.
@MainActor private protocol Badge {
  func badgeDidChange(to count: Int)
}

@MainActor private final class BadgeView: Badge {
  var counts: [Int] = []
  let arrived = Signal()

  func badgeDidChange(to count: Int) {
    MainActor.preconditionIsolated()
    counts.append(count)
    arrived.fire()
  }
}

@Suite("Broadcaster isolated conformances")
struct BroadcasterIsolatedConformanceTests {
  let hub = Broadcaster()

  @Test("an observer reached through an isolated conformance is only called on its actor")
  @MainActor
  func isolatedConformanceHops() async {
    let screen = TitleScreen()
    hub.register((any TitleObserver).self, observer: screen)
    let hub = hub

    Thread.detachNewThread {
      hub.notify((any TitleObserver).self) { $0.titleDidChange(to: "Inbox") }
    }
    #expect(await screen.arrived.arrival())
    hub.notify((any TitleObserver).self) { $0.titleDidChange(to: "Sent") }

    #expect(screen.titles == ["Inbox", "Sent"])
    #expect(screen.onMainActor.values == [true, true])
  }

  @Test("a @MainActor protocol is notified from a background thread with a @MainActor body")
  @MainActor
  func mainActorProtocol() async {
    let view = BadgeView()
    hub.register((any Badge).self, observer: view)
    let hub = hub

    Thread.detachNewThread {
      hub.notify((any Badge).self) { @MainActor in $0.badgeDidChange(to: 3) }
    }

    #expect(await view.arrived.arrival())
    #expect(view.counts == [3])
  }
}
