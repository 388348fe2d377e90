import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let postOrder = Notification.Name("EventRAIITests.postOrder")
}

/// A sender, to put an observer in the list of one sender beside the list of every sender.
private final class Sender: Sendable {}

@Suite("Main-actor post order (NotificationCenter)")
struct MainActorPostOrderTests {
  @MainActor
  @Test("one post across the sender's observers and everyone's keeps one main-actor order")
  func acrossSenderLists() async {
    let center = NotificationCenter()
    let sender = Sender()
    var log: [String] = []
    let first = center.observe(.postOrder) { note in log.append("H1:\(note.userInfo!["n"]!)") }
    #expect(
      onOtherThread { center.post(name: .postOrder, object: sender, userInfo: ["n": 1]) })
    let second = center.observe(.postOrder, object: sender) { note in
      log.append("H2:\(note.userInfo!["n"]!)")
    }
    center.post(name: .postOrder, object: sender, userInfo: ["n": 2])
    await drainMainQueue()
    #expect(log == ["H1:1", "H1:2", "H2:2"])
    withExtendedLifetime((first, second)) {}
  }
}
