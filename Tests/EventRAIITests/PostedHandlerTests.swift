import Foundation
import Synchronization
import Testing

@testable import EventRAII

/// An object a notification carries, to tell it arrived and was released.
private final class Sender: Sendable {}

@Suite("PostedHandler")
struct PostedHandlerTests {
  @Test("a posted notification is laid out as the notification it wraps")
  func layoutMatches() {
    #expect(MemoryLayout<PostedNotification>.size == MemoryLayout<Notification>.size)
    #expect(MemoryLayout<PostedNotification>.alignment == MemoryLayout<Notification>.alignment)
    #expect(MemoryLayout<PostedNotification>.stride == MemoryLayout<Notification>.stride)
  }

  @Test("a reinterpreted handler receives each notification intact, and releases what it carried")
  func callsReceiveTheNotification() {
    let received = Mutex<[(Notification.Name, ObjectIdentifier?, String?)]>([])
    let handler = PostedHandler.callable { notification in
      let object = (notification.object as AnyObject?).map(ObjectIdentifier.init)
      let value = notification.userInfo?["key"] as? String
      received.withLock { $0.append((notification.name, object, value)) }
    }
    weak var released: Sender?
    var expected: [(Notification.Name, ObjectIdentifier?, String?)] = []
    for index in 0..<3 {
      let sender = Sender()
      released = sender
      let name = Notification.Name("PostedHandlerTests.\(index)")
      expected.append((name, ObjectIdentifier(sender), "value \(index)"))
      let notification = Notification(
        name: name, object: sender, userInfo: ["key": "value \(index)"])
      handler(PostedNotification(notification: notification))
    }
    handler(PostedNotification(notification: Notification(name: .init("PostedHandlerTests.nil"))))
    expected.append((.init("PostedHandlerTests.nil"), nil, nil))
    #expect(released == nil)
    let calls = received.withLock { $0 }
    #expect(calls.count == expected.count)
    for (call, wanted) in zip(calls, expected) {
      #expect(call.0 == wanted.0)
      #expect(call.1 == wanted.1)
      #expect(call.2 == wanted.2)
    }
  }
}
