import EventTestSupport
import EventTyped
import Testing

/// An object an actor owns, whose method the actor registers.
private final class Part: Sendable {
  func receive(_ value: Int) {}
}

/// An actor that registers a method of an object it owns, from its own code, and keeps the
/// token: the registration's isolation is the actor.
private actor Owner {
  let part = Part()
  var token: Subscription?

  func start(_ event: Event<Int>) -> Subscription {
    let token = event.register(part, function: Part.receive)
    self.token = token
    return token
  }
}

@Suite("Actor isolation lifetime")
struct ActorIsolationLifetimeTests {
  @Test("an actor that registers a method of an object it owns is released with that object")
  func ownedMethod() async {
    let event = Event<Int>()
    var owner: Owner? = Owner()
    let token = await owner!.start(event)
    let weakOwner = Weak(owner)
    let weakPart = Weak(owner!.part)
    #expect(event.observerCount == 1)
    owner = nil
    #expect(weakOwner.object == nil, "the registration kept the actor alive")
    #expect(weakPart.object == nil, "the registration kept the actor's object alive")
    #expect(event.observerCount == 0, "the registration of a dead actor was not purged")
    #expect(token.isCancelled)
  }

}
