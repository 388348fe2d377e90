import EventConditions
import EventTestSupport
import Testing

@Suite("Ignore order")
struct IgnoreOrderTests {
  @Test(
    "onIgnored handlers run before the evaluation: they see the name met, not the next round",
    arguments: [true, false])
  func onIgnoredSeesNameMet(repeats: Bool) {
    let receiver = NotificationReceiver(repeats: repeats)
    receiver.add(NotificationConditioner("profile"))
    receiver.add(NotificationConditioner("friends", minCount: 2))
    let seen = Recorder<String>()
    let ignored = receiver.onIgnored { name in
      seen.record("ignored \(name): remaining \(receiver.remaining(name))")
      seen.record("verified before the handler: \(receiver.isVerified)")
    }
    let verified = receiver.onVerified { seen.record("verified") }
    receiver.check("profile")
    receiver.ignore("friends")
    #expect(
      seen.values == [
        "ignored friends: remaining 0", "verified before the handler: true", "verified",
      ])
    #expect(receiver.remaining("friends") == (repeats ? 2 : 0))
    withExtendedLifetime((ignored, verified)) {}
  }
}
