import EventRAII
import EventTestSupport
import Foundation
import Testing

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
    weak let weakDevice = device
    let token = center.observe(.filtered, object: device) { _ in }
    device = nil
    #expect(weakDevice == nil)
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

  @Test("an object allocated at a dead sender's address does not match", .needsAddressReuse)
  func reusedAddressDoesNotMatch() throws {
    let center = NotificationCenter()
    var device: Device? = Device()
    let address = ObjectIdentifier(try #require(device))
    let calls = Counter()
    let token = center.observe(.filtered, object: device) { _ in calls.increment() }
    device = nil
    var candidates: [Device] = []
    var impostor: Device?
    for _ in 0..<10_000 {
      let candidate = Device()
      if ObjectIdentifier(candidate) == address {
        impostor = candidate
        break
      }
      candidates.append(candidate)
    }
    let reused = try #require(impostor, "the allocator never reused the address")
    center.post(name: .filtered, object: reused)
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
}
