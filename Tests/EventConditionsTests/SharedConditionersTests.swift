import EventConditions
import EventTestSupport
import Foundation
import Testing

@Suite("SharedConditioners")
struct SharedConditionersTests {
  /// A screen that waits for "logged-in" (shared) and its own "profile" request.
  private static func screen(
    _ registry: SharedConditioners, repeats: Bool = true
  ) -> NotificationReceiver {
    let receiver = NotificationReceiver(repeats: repeats)
    receiver.add(registry.conditioner("logged-in"))
    receiver.add(NotificationConditioner("profile"))
    return receiver
  }

  @Test("one arrival advances every holder once")
  func oneArrivalEveryHolder() {
    let registry = SharedConditioners()
    let login = registry.conditioner("logged-in", minCount: 2)
    let first = NotificationReceiver()
    let second = NotificationReceiver()
    first.add(login)
    second.add(login)
    registry.arrive("logged-in")
    #expect(registry.remaining("logged-in") == 1)
    #expect(first.remaining("logged-in") == 1)
    #expect(second.remaining("logged-in") == 1)
  }

  @Test("a shared conditioner across two receivers completes each of them once")
  func twoReceivers() {
    let registry = SharedConditioners()
    let profile = Self.screen(registry)
    let friends = NotificationReceiver()
    friends.add(registry.conditioner("logged-in"))
    friends.add(NotificationConditioner("friends"))
    let completions = Recorder<String>()
    let tokens = [
      profile.onVerified { completions.record("profile") },
      friends.onVerified { completions.record("friends") },
    ]
    profile.check("profile")
    friends.check("friends")
    #expect(completions.values.isEmpty)
    registry.arrive("logged-in")
    #expect(completions.values == ["profile", "friends"])
    _ = tokens
  }

  @Test("an arrival before any receiver asked is not lost")
  func arrivalBeforeAsking() {
    let registry = SharedConditioners()
    registry.arrive("logged-in")
    #expect(registry.remaining("logged-in") == 0)
    let receiver = Self.screen(registry)
    #expect(receiver.remaining("logged-in") == 0)
    #expect(registry.remaining("logged-in") == 0)
    #expect(receiver.check("profile"))
  }

  @Test("a holder's re-arm does not reset the shared count")
  func rearmKeepsShared() {
    let registry = SharedConditioners()
    let receiver = Self.screen(registry)
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    registry.arrive("logged-in")
    #expect(receiver.check("profile"))
    #expect(receiver.remaining("logged-in") == 0)
    #expect(receiver.check("profile"))
    receiver.reset()
    #expect(receiver.remaining("logged-in") == 0)
    #expect(receiver.check("profile"))
    #expect(completions.count == 3)
    token.cancel()
  }

  @Test("reset on the registry re-arms the name in the registry and every holder")
  func registryReset() {
    let registry = SharedConditioners()
    let receiver = Self.screen(registry)
    registry.arrive("logged-in")
    registry.reset("logged-in")
    #expect(registry.remaining("logged-in") == 1)
    #expect(receiver.remaining("logged-in") == 1)
    #expect(!receiver.check("profile"))
    registry.arrive("logged-in")
    #expect(receiver.remaining("profile") == 1)
  }

  @Test("checking a shared name evaluates and never consumes it")
  func checkDoesNotConsume() {
    let registry = SharedConditioners()
    let receiver = NotificationReceiver()
    receiver.add(registry.conditioner("logged-in", minCount: 2))
    registry.arrive("logged-in")
    for _ in 0..<5 { #expect(!receiver.check("logged-in")) }
    #expect(registry.remaining("logged-in") == 1)
    #expect(receiver.remaining("logged-in") == 1)
  }

  @Test("a set of shared conditioners fires on the transition only")
  func transitionOnly() {
    let registry = SharedConditioners()
    let receiver = NotificationReceiver()
    receiver.add(registry.conditioner("logged-in"))
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    registry.arrive("logged-in")
    #expect(completions.count == 1)
    registry.arrive("logged-in")
    #expect(!receiver.check("logged-in"))
    #expect(receiver.isVerified)
    #expect(completions.count == 1)
    registry.reset("logged-in")
    #expect(!receiver.isVerified)
    registry.arrive("logged-in")
    #expect(completions.count == 2)
    token.cancel()
  }

  @Test("a latched holder stays verified after the registry resets")
  func latchedHolder() {
    let registry = SharedConditioners()
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(registry.conditioner("logged-in"))
    registry.arrive("logged-in")
    registry.reset("logged-in")
    #expect(receiver.isVerified)
    #expect(receiver.check("logged-in"))
    receiver.reset()
    #expect(!receiver.isVerified)
  }

  @Test("an ignore of a shared conditioner affects that receiver only, for one round")
  func ignoreShared() {
    let registry = SharedConditioners()
    let first = Self.screen(registry)
    let second = Self.screen(registry)
    first.ignore("logged-in")
    #expect(first.remaining("logged-in") == 0)
    #expect(second.remaining("logged-in") == 1)
    #expect(registry.remaining("logged-in") == 1)
    #expect(first.check("profile"))
    #expect(first.remaining("logged-in") == 1)
  }

  @Test("while disabled, a holder keeps reading the count but completes nothing")
  func disabledHolder() {
    let registry = SharedConditioners()
    let receiver = Self.screen(registry)
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    receiver.check("profile")
    receiver.isEnabled = false
    registry.arrive("logged-in")
    #expect(completions.count == 0)
    #expect(receiver.remaining("logged-in") == 0)
    receiver.isEnabled = true
    #expect(receiver.check("logged-in"))
    #expect(completions.count == 1)
    token.cancel()
  }

  @Test("remaining of a name never handed out is 0")
  func remainingUnknown() {
    let registry = SharedConditioners()
    #expect(registry.remaining("never") == 0)
    registry.arrive("counted")
    #expect(registry.remaining("counted") == 0)
    #expect(registry.conditioner("counted", minCount: 3).minCount == 3)
    #expect(registry.remaining("counted") == 2)
  }

  @Test("conditioners are equal within a registry and never across registries")
  func equality() {
    let registry = SharedConditioners()
    let other = SharedConditioners()
    #expect(registry.conditioner("a") == registry.conditioner("a"))
    #expect(registry.conditioner("a").hashValue == registry.conditioner("a").hashValue)
    #expect(registry.conditioner("a") != other.conditioner("a"))
    #expect(registry.conditioner("a") != registry.conditioner("b"))
    #expect(Set([registry.conditioner("a"), other.conditioner("a")]).count == 2)
    #expect(SharedConditioners.shared.conditioner("shared-equality").name == "shared-equality")
  }

  @Test("registries count separately")
  func separateRegistries() {
    let registry = SharedConditioners()
    let other = SharedConditioners()
    let receiver = NotificationReceiver()
    receiver.add(registry.conditioner("logged-in"))
    other.arrive("logged-in")
    #expect(receiver.remaining("logged-in") == 1)
    #expect(registry.remaining("logged-in") == 1)
  }

  @Test("a registry keeps no holder alive")
  func holdersAreWeak() {
    let registry = SharedConditioners()
    weak var weakReceiver: NotificationReceiver?
    do {
      let receiver = Self.screen(registry)
      weakReceiver = receiver
      registry.arrive("logged-in")
    }
    #expect(weakReceiver == nil)
    registry.arrive("logged-in")
  }

  @Test("a removed shared conditioner can be added again and reads the current count")
  func removeAndAddAgain() {
    let registry = SharedConditioners()
    let receiver = Self.screen(registry)
    receiver.remove("logged-in")
    registry.arrive("logged-in")
    #expect(receiver.remaining("logged-in") == 0)
    receiver.add(registry.conditioner("logged-in"))
    #expect(receiver.remaining("logged-in") == 0)
  }

  @Test("listen counts a center's notifications as arrivals")
  func listen() {
    let registry = SharedConditioners()
    let center = NotificationCenter()
    let receiver = Self.screen(registry)
    let name = Notification.Name("logged-in")
    let token = registry.listen(to: name, center: center)
    center.post(name: name, object: nil)
    #expect(registry.remaining("logged-in") == 0)
    #expect(receiver.check("profile"))
    token.cancel()
    registry.reset("logged-in")
    center.post(name: name, object: nil)
    #expect(registry.remaining("logged-in") == 1)
  }

  @Test("a different minimum count for a handed-out name stops the program with a message")
  func conflictingMinCount() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let registry = SharedConditioners()
      _ = registry.conditioner("logged-in", minCount: 1)
      _ = registry.conditioner("logged-in", minCount: 2)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "\"logged-in\" was already handed out with minCount 1"))
  }

  @Test("a shared minimum count below 1 stops the program with a message naming it")
  func zeroMinCount() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = SharedConditioners().conditioner("logged-in", minCount: 0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "SharedConditioners.conditioner(\"logged-in\", minCount: 0): minCount must be at least 1"))
  }

  @Test("a shared name already in a receiver stops the program with a message naming it")
  func duplicateInReceiver() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let receiver = NotificationReceiver()
      receiver.add(NotificationConditioner("logged-in"))
      receiver.add(SharedConditioners().conditioner("logged-in"))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "NotificationReceiver.add: a conditioner named \"logged-in\" is already in the set"))
  }
}
