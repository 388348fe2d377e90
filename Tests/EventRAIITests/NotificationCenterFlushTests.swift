import EventCore
import EventRAII
import EventTestSupport
import Foundation
import Testing

/// An actor owner on a queue the test can hold.
private actor Inbox {
  let executor = QueueSerialExecutor(label: "NotificationCenterFlushTests.inbox")
  nonisolated let received = Recorder<String>()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

@Suite("NotificationCenter flush", .timeLimit(.minutes(1)))
struct NotificationCenterFlushTests {
  static let didSave = Notification.Name("NotificationCenterFlushTests.didSave")
  static let other = Notification.Name("NotificationCenterFlushTests.other")

  @Test("after flush, a .queue(q) observation has had every earlier notification")
  func queued() async {
    let center = NotificationCenter()
    let queue = DispatchQueue(label: "NotificationCenterFlushTests.queued")
    let received = Recorder<Int>()
    let token = center.observe(Self.didSave, delivery: .queue(queue)) { note in
      received.record(note.userInfo?["n"] as? Int ?? 0)
    }
    defer { token.cancel() }
    let values = await flushResult(holding: queue) {
      for n in 1...3 { center.post(name: Self.didSave, object: nil, userInfo: ["n": n]) }
    } flush: {
      await center.flush(Self.didSave)
      return received.values
    }
    #expect(values == [1, 2, 3])
  }

  @Test("after flush, a .mainActor observation posted to off the main actor has had every one")
  func mainActor() async {
    let center = NotificationCenter()
    let received = Recorder<Int>()
    let token = center.observe(Self.didSave, delivery: .mainActor) { note in
      received.record(note.userInfo?["n"] as? Int ?? 0)
    }
    defer { token.cancel() }
    let values = await flushResult(holding: .main) {
      for n in 1...3 { center.post(name: Self.didSave, object: nil, userInfo: ["n": n]) }
    } flush: {
      await center.flush(Self.didSave)
      return received.values
    }
    #expect(values == [1, 2, 3])
  }

  @Test("flush waits for sender-filtered, every-name and actor-owner observations too")
  func everyList() async {
    final class Sender: Sendable {}
    let center = NotificationCenter()
    let sender = Sender()
    let inbox = Inbox()
    // One queue for all three, held while the flush starts.
    let queue = inbox.executor.queue
    let received = Recorder<String>()
    let tokens = [
      center.observe(Self.didSave, object: sender, delivery: .queue(queue)) { _ in
        received.record("filtered")
      },
      center.observe(nil, delivery: .queue(queue)) { note in
        if note.name == Self.didSave { received.record("every name") }
      },
      center.observe(Self.didSave, owner: inbox) { inbox, _ in inbox.received.record("actor") },
    ]
    defer { tokens.forEach { $0.cancel() } }
    let values = await flushResult(holding: queue) {
      center.post(name: Self.didSave, object: sender)
    } flush: {
      await center.flush(Self.didSave)
      return received.values + inbox.received.values
    }
    // The every-name channel is a center registration of its own, which Foundation calls in
    // an order of its choosing.
    #expect(values?.sorted() == ["actor", "every name", "filtered"])
  }

  @Test("flush(nil) waits for every name's observations; other names are not waited for")
  func names() async {
    let center = NotificationCenter()
    let queue = DispatchQueue(label: "NotificationCenterFlushTests.names")
    let received = Recorder<String>()
    let tokens = [
      center.observe(Self.didSave, delivery: .queue(queue)) { _ in received.record("didSave") },
      center.observe(Self.other, delivery: .queue(queue)) { _ in received.record("other") },
    ]
    defer { tokens.forEach { $0.cancel() } }
    let values = await flushResult(holding: queue) {
      center.post(name: Self.didSave, object: nil)
      center.post(name: Self.other, object: nil)
    } flush: {
      await center.flush(nil)
      return received.values
    }
    #expect(values == ["didSave", "other"])
    #expect(await finishes { await center.flush(Notification.Name("nobody observes this")) })
  }
}
