import EventTestSupport
import Foundation
import Testing

@testable import EventRAII

private extension Notification.Name {
  static let filtered = Notification.Name("EventRAIITests.filtered")
}

/// A sender whose identity the filter matches.
private final class Device {}

@Suite("Sender filter")
struct SenderFilterTests {
  @Test("only notifications from the given sender are delivered")
  func matchesBySender() {
    let center = NotificationCenter()
    let device = Device()
    let calls = Counter()
    let token = center.observe(.filtered, object: device) { _ in calls.increment() }
    center.post(name: .filtered, object: device)
    center.post(name: .filtered, object: Device())
    center.post(name: .filtered, object: nil)
    #expect(calls.count == 1)
    token.cancel()
  }

  @Test("the sender is held weakly")
  func senderIsWeak() {
    let center = NotificationCenter()
    var device: Device? = Device()
    let weakDevice = Weak(device)
    let token = center.observe(.filtered, object: device) { _ in }
    device = nil
    #expect(weakDevice.object == nil)
    token.cancel()
  }

  @Test("a sender that died matches nothing, not even posts without a sender")
  func deadSenderMatchesNothing() {
    let center = NotificationCenter()
    var device: Device? = Device()
    let calls = Counter()
    let token = center.observe(.filtered, object: device) { _ in calls.increment() }
    device = nil
    center.post(name: .filtered, object: nil)
    center.post(name: .filtered, object: Device())
    #expect(calls.count == 0)
    token.cancel()
  }

  @Test("a sender filter also applies to queue deliveries and to nil-name observers")
  func filterWithQueueAndNilName() {
    let center = NotificationCenter()
    let device = Device()
    let target = DispatchQueue(label: "filtered")
    let seen = Recorder<String>()
    let token = center.observe(nil, object: device, delivery: .queue(target)) { note in
      seen.record(note.name.rawValue)
    }
    center.post(name: .filtered, object: Device())
    center.post(name: .filtered, object: device)
    center.post(name: .init("other"), object: device)
    #expect(drain(target))
    #expect(seen.values == ["EventRAIITests.filtered", "other"])
    token.cancel()
  }

  @Test("observers run in registration order across filtered and unfiltered observers")
  func orderAcrossFilters() {
    let center = NotificationCenter()
    let device = Device()
    let other = Device()
    let seen = Recorder<Int>()
    let tokens = [
      center.observe(.filtered, object: device) { _ in seen.record(1) },
      center.observe(.filtered) { _ in seen.record(2) },
      center.observe(.filtered, object: other) { _ in seen.record(3) },
      center.observe(.filtered, object: device) { _ in seen.record(4) },
      center.observe(.filtered) { _ in seen.record(5) },
      center.observe(.filtered, object: device) { _ in seen.record(6) },
    ]
    center.post(name: .filtered, object: device)
    #expect(seen.values == [1, 2, 4, 5, 6])
    center.post(name: .filtered, object: other)
    #expect(seen.values == [1, 2, 4, 5, 6, 2, 3, 5])
    center.post(name: .filtered, object: nil)
    #expect(seen.values == [1, 2, 4, 5, 6, 2, 3, 5, 2, 5])
    for token in tokens { token.cancel() }
  }

  @Test("a post reaches only its sender's observers among observers of many senders")
  func manySenders() {
    let center = NotificationCenter()
    let devices = (0..<100).map { _ in Device() }
    let seen = Recorder<Int>()
    let tokens = devices.indices.map { index in
      center.observe(.filtered, object: devices[index]) { _ in seen.record(index) }
    }
    center.post(name: .filtered, object: devices[42])
    center.post(name: .filtered, object: devices[7])
    #expect(seen.values == [42, 7])
    tokens[42].cancel()
    center.post(name: .filtered, object: devices[42])
    #expect(seen.values == [42, 7])
    for token in tokens { token.cancel() }
  }

  @Test("the sender matches however the poster typed it")
  func senderTypedAsExistential() {
    let center = NotificationCenter()
    let device = Device()
    let calls = Counter()
    let token = center.observe(.filtered, object: device) { _ in calls.increment() }
    let asObject: AnyObject = device
    center.post(name: .filtered, object: asObject)
    center.post(name: .filtered, object: wrapped(asObject))
    center.post(name: .filtered, object: "a value")
    #expect(calls.count == 2)
    token.cancel()
  }

  #if canImport(ObjectiveC)
    // On Apple platforms the group holds its sender weakly, and the allocator may put a new object
    // at a dead sender's address while its observations live.
    @Test("an object allocated at a dead sender's address does not match", .needsAddressReuse)
    func reusedAddressDoesNotMatch() throws {
      let center = NotificationCenter()
      var device: Device? = Device()
      let address = ObjectIdentifier(try #require(device))
      let calls = Counter()
      let token = center.observe(.filtered, object: device) { _ in calls.increment() }
      device = nil
      guard let reused = allocate(at: address, { Device() }) else {
        return try skipWithoutAddressReuse()
      }
      center.post(name: .filtered, object: reused)
      #expect(calls.count == 0)
      token.cancel()
    }

    @Test(
      "a new object at a dead sender's address gets observers of its own, and only those",
      .needsAddressReuse)
    func reusedAddressObservesAnew() throws {
      let center = NotificationCenter()
      var device: Device? = Device()
      let address = ObjectIdentifier(try #require(device))
      let stale = Counter()
      let staleToken = center.observe(.filtered, object: device) { _ in stale.increment() }
      device = nil
      guard let reused = allocate(at: address, { Device() }) else {
        return try skipWithoutAddressReuse()
      }
      let fresh = Counter()
      let freshToken = center.observe(.filtered, object: reused) { _ in fresh.increment() }
      center.post(name: .filtered, object: reused)
      #expect(fresh.count == 1)
      #expect(stale.count == 0)
      staleToken.cancel()
      center.post(name: .filtered, object: reused)
      #expect(fresh.count == 2)
      freshToken.cancel()
    }
  #else
    // Elsewhere the group keeps a dead sender's memory allocated (`IdentityReference`), so no
    // new object can be at its address while its observations live, and posts compare
    // addresses only: sound only while that holds.
    @Test("a dead sender's address is not reused while it is observed", .needsAddressReuse)
    func deadSenderAddressIsKept() throws {
      // Without an observation, the allocator hands a dead sender's address out again.
      let free = ObjectIdentifier(Device())
      guard allocate(at: free, attempts: 1000, { Device() }) != nil else {
        return try skipWithoutAddressReuse()
      }
      let center = NotificationCenter()
      let calls = Counter()
      var device: Device? = Device()
      let weakDevice = Weak(device)
      let address = ObjectIdentifier(try #require(device))
      let token = center.observe(.filtered, object: device) { _ in calls.increment() }
      device = nil
      #expect(weakDevice.object == nil, "the observation kept its sender alive")
      #expect(allocate(at: address, attempts: 1000, { Device() }) == nil)
      center.post(name: .filtered, object: Device())
      #expect(calls.count == 0)
      token.cancel()
    }
  #endif

  @Test("a sender's observations release the sender's group when they end")
  func groupLeavesWithLastObservation() {
    let center = NotificationCenter()
    let calls = Counter()
    // The posts' notifications, which hold the sender, may be autoreleased.
    let weakDevice = withAutoreleasePool {
      let device = Device()
      var tokens = (0..<3).map { _ in
        center.observe(.filtered, object: device) { _ in calls.increment() }
      }
      center.post(name: .filtered, object: device)
      #expect(calls.count == 3)
      tokens.removeAll()
      center.post(name: .filtered, object: device)
      #expect(calls.count == 3)
      return Weak(device)
    }
    #expect(weakDevice.object == nil)
    #expect(!ChannelRegistry.shared.hasChannel(center: center, name: .filtered))
  }
}

/// `value` as an `Any` made by generic code, which keeps the existential it was given.
private func wrapped<T>(_ value: T) -> Any { value }
