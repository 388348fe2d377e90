import EventBroadcast
import EventTestSupport
import Testing

private protocol Refresh {
  func refresh(_ value: Int)
}

/// An observer whose `refresh` keeps running while the test ends its registration.
private final class Panel: Refresh, Sendable {
  let running: RunningHandler

  init(running: RunningHandler) {
    self.running = running
  }

  func refresh(_ value: Int) {
    if value == 1 { running.run() }
  }
}

/// The ways a broadcaster registration ends that used to wait for a running call.
enum BroadcastEnding: String, CaseIterable, Sendable {
  case unregister, unregisterAll, reRegistration, subscriptionCancel
}

@Suite("Broadcaster teardown")
struct BroadcasterTeardownTests {
  @Test(
    "ending a registration returns while the observer runs on another thread",
    arguments: BroadcastEnding.allCases)
  func endingDoesNotWait(_ ending: BroadcastEnding) {
    let hub = Broadcaster()
    let running = RunningHandler()
    let panel = Panel(running: running)
    let token = hub.register((any Refresh).self, observer: panel)
    let returned = returnsWhileHandlerRuns(
      running, post: { hub.notify((any Refresh).self) { $0.refresh(1) } }
    ) {
      switch ending {
      case .unregister: hub.unregister((any Refresh).self, observer: panel)
      case .unregisterAll: hub.unregisterAll((any Refresh).self)
      case .reRegistration: hub.register((any Refresh).self, observer: panel)
      case .subscriptionCancel: token.cancel()
      }
      _ = hub.observerCount((any Refresh).self)
    }
    #expect(returned, "\(ending) waited for the observer running on another thread")
  }
}
