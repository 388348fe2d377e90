import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

@MainActor
private final class Badge {
  private(set) var shown: [String] = []
  private(set) var offMainActor = 0

  func show(_ value: String) {
    if !MainActorDetection.isOnMainActor { offMainActor += 1 }
    shown.append(value)
  }
}

@Suite("Event: a @MainActor method registered from nonisolated code")
struct MainActorMethodTests {
  @Test("registered with await from nonisolated code, it runs on the main actor")
  func awaitedFromNonisolatedCode() async {
    let event = Event<String>()
    let badge = Badge()
    await event.register(badge, function: Badge.show)
    #expect(onOtherThread { event.post("a") })
    await drainMainQueue()
    #expect(await badge.shown == ["a"])
    #expect(await badge.offMainActor == 0)
  }
}
