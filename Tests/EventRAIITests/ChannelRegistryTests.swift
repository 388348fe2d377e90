import EventTestSupport
import Foundation
import Testing

@testable import EventRAII

private extension Notification.Name {
  static let channel = Notification.Name("EventRAIITests.channel")
}

/// An owner for owner-bound observations.
private final class Host: Sendable {}

@Suite("Center registrations")
struct ChannelRegistryTests {
  @Test("the center registration is removed when the last observer of a name ends")
  func lastCancelRemovesRegistration() {
    let center = NotificationCenter()
    let registry = ChannelRegistry.shared
    let first = center.observe(.channel) { _ in }
    let second = center.observe(.channel) { _ in }
    #expect(registry.hasChannel(center: center, name: .channel))
    first.cancel()
    #expect(registry.hasChannel(center: center, name: .channel))
    second.cancel()
    #expect(!registry.hasChannel(center: center, name: .channel))
  }

  @Test("observing again after the last observer ended registers anew")
  func resubscribeAfterTeardown() {
    let center = NotificationCenter()
    let calls = Counter()
    center.observe(.channel) { _ in calls.increment() }.cancel()
    let token = center.observe(.channel) { _ in calls.increment() }
    center.post(name: .channel, object: nil)
    #expect(calls.count == 1)
    token.cancel()
  }

  @Test("a nil name has a registration of its own")
  func nilNameIsItsOwnChannel() {
    let center = NotificationCenter()
    let registry = ChannelRegistry.shared
    let all = center.observe(nil) { _ in }
    #expect(registry.hasChannel(center: center, name: nil))
    #expect(!registry.hasChannel(center: center, name: .channel))
    all.cancel()
    #expect(!registry.hasChannel(center: center, name: nil))
  }

  @Test("a dead owner's registration is removed by the next post")
  func deadOwnerIsPurged() {
    let center = NotificationCenter()
    var host: Host? = Host()
    if let host { center.observe(.channel, owner: host) { _, _ in } }
    host = nil
    center.post(name: .channel, object: nil)
    #expect(!ChannelRegistry.shared.hasChannel(center: center, name: .channel))
  }

  @Test("a center is not kept alive by its observers, and their tokens outlive it safely")
  func centerIsNotRetained() {
    // Foundation may autorelease the center while it registers an observer.
    let (weakCenter, token) = withAutoreleasePool {
      let center = NotificationCenter()
      return (Weak(center), center.observe(.channel) { _ in })
    }
    #expect(weakCenter.object == nil)
    token.cancel()
    #expect(token.isCancelled)
  }

  @Test(
    "a center allocated at a dead center's address gets channels of its own", .needsAddressReuse)
  func deadCenterChannelIsNotReused() throws {
    let stale = Counter()
    var tokens: [Subscription] = []
    var deadAddresses = Set<ObjectIdentifier>()
    var impostor: NotificationCenter?
    for _ in 0..<500 {
      let center = NotificationCenter()
      if deadAddresses.contains(ObjectIdentifier(center)) {
        impostor = center
        break
      }
      // Kept past the center's death, so its channel outlives the center.
      tokens.append(center.observe(.channel) { _ in stale.increment() })
      deadAddresses.insert(ObjectIdentifier(center))
    }
    guard let center = impostor else { return try skipWithoutAddressReuse() }
    let current = Counter()
    let token = center.observe(.channel) { _ in current.increment() }
    center.post(name: .channel, object: nil)
    #expect(current.count == 1)
    #expect(stale.count == 0)
    token.cancel()
    tokens.removeAll()
  }

  #if !canImport(ObjectiveC)
    // `IdentityReference` takes a live center at its center's address for that center: sound only
    // while the channel keeps the dead center's memory allocated.
    @Test("a dead center's address is not reused while its channel lives", .needsAddressReuse)
    func deadCenterAddressIsKept() throws {
      // Without a channel, the allocator hands a dead center's address out again.
      let free = ObjectIdentifier(NotificationCenter())
      guard allocate(at: free, attempts: 1000, { NotificationCenter() }) != nil else {
        return try skipWithoutAddressReuse()
      }
      let (address, token) = withAutoreleasePool {
        let center = NotificationCenter()
        return (ObjectIdentifier(center), center.observe(.channel) { _ in })
      }
      #expect(allocate(at: address, attempts: 1000, { NotificationCenter() }) == nil)
      token.cancel()
    }
  #endif

  @Test("the registry gives back its storage after many names came and went")
  func registryShrinks() {
    let center = NotificationCenter()
    let registry = ChannelRegistry()
    for batch in 0..<20 {
      let leases = (0..<1_000).map { index in
        registry.lease(
          center: center, name: Notification.Name("burst.\(batch).\(index)"),
          sender: nil)
      }
      #expect(registry.capacity >= leases.count)
    }
    #expect(registry.capacity < 64, "the storage of 1,000 names stayed after they ended")
  }
}
