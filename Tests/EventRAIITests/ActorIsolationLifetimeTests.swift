import EventTestSupport
import Foundation
import Testing

@testable import EventRAII

private extension Notification.Name {
  static let actorLifetime = Notification.Name("EventRAIITests.actorLifetime")
}

/// An object an actor owns, whose method the actor registers as a target-action.
private final class Part: Sendable {
  func refresh(_ note: Notification) {}
}

/// An actor that observes with a target-action of an object it owns, from its own code, and
/// keeps the token: the observation's isolation is the actor.
private actor Owner {
  let part = Part()
  var token: Subscription?

  func start(_ center: NotificationCenter) {
    token = center.observe(.actorLifetime, target: part, action: Part.refresh)
  }
}

@Suite("Actor isolation lifetime (NotificationCenter)")
struct ActorIsolationLifetimeTests {
  @Test("an actor that observes with a target-action of an object it owns is released with it")
  func ownedTargetAction() async {
    let center = NotificationCenter()
    var owner: Owner? = Owner()
    await owner!.start(center)
    let weakOwner = Weak(owner)
    let weakPart = Weak(owner!.part)
    owner = nil
    #expect(weakOwner.object == nil, "the observation kept the actor alive")
    #expect(weakPart.object == nil, "the observation kept the actor's object alive")
    #expect(
      !ChannelRegistry.shared.hasChannel(center: center, name: .actorLifetime),
      "the observation outlived the actor that kept its token")
  }
}
