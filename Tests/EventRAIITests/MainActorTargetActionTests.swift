import EventCore
import EventRAII
import EventTestSupport
import Foundation
import Testing

@MainActor
private final class Badge {
  private(set) var reloads = 0
  private(set) var offMainActor = 0

  func reload() {
    if !MainActorDetection.isOnMainActor { offMainActor += 1 }
    reloads += 1
  }
}

@Suite("NotificationCenter: a @MainActor target-action registered from nonisolated code")
struct MainActorTargetActionTests {
  @Test("registered with await from nonisolated code, it runs on the main actor")
  func awaitedFromNonisolatedCode() async {
    let center = NotificationCenter()
    let name = Notification.Name("EventRAIITests.mainActorTargetAction")
    let badge = Badge()
    let token = await center.observe(name, target: badge, action: Badge.reload)
    #expect(onOtherThread { center.post(name: name, object: nil) })
    await drainMainQueue()
    #expect(await badge.reloads == 1)
    #expect(await badge.offMainActor == 0)
    withExtendedLifetime(token) {}
  }

  @Test("a name written .init(…) reaches the same form: the method runs on the main actor")
  func initNameFromNonisolatedCode() async {
    let center = NotificationCenter()
    let raw = "EventRAIITests.mainActorTargetActionInitName"
    let badge = Badge()
    // Swift used to pick the nonisolated form for these spellings, and ran the method on the
    // posting thread.
    let tokens = [
      await center.observe(.init(raw), target: badge, action: Badge.reload),
      await center.observe(.init(rawValue: raw), target: badge, action: Badge.reload),
    ]
    #expect(onOtherThread { center.post(name: Notification.Name(raw), object: nil) })
    await drainMainQueue()
    #expect(await badge.reloads == 2)
    #expect(await badge.offMainActor == 0)
    withExtendedLifetime(tokens) {}
  }
}
