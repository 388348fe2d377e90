import EventTestSupport
import Foundation
import Testing

@testable import EventConditions

@Suite("NotificationReceiver.onArrival and listen(to:as:)")
struct NotificationReceiverArrivalTests {
  @Test("runs for each counted arrival, after it is counted, before onVerified")
  func orderAndCount() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("profile"))
    receiver.add(NotificationConditioner("messages", minCount: 2))
    let log = Recorder<String>()
    let arrivals = receiver.onArrival { name in
      log.record("\(name) \(receiver.remaining(name))")
    }
    let verified = receiver.onVerified { log.record("verified") }
    receiver.check("messages")
    receiver.check("profile")
    receiver.check("messages")
    // The completing arrival is seen after the evaluation, which re-armed the round.
    #expect(log.values == ["messages 1", "profile 0", "messages 2", "verified"])
    withExtendedLifetime((arrivals, verified)) {}
  }

  @Test("arrivals beyond minCount count; names not in the set and disabled arrivals do not")
  func whatCounts() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("profile"))
    receiver.add(NotificationConditioner("friends"))
    let log = Recorder<String>()
    let arrivals = receiver.onArrival { log.record($0) }
    receiver.check("profile")
    receiver.check("profile")
    receiver.check("unknown")
    receiver.isEnabled = false
    receiver.check("friends")
    receiver.isEnabled = true
    receiver.ignore("friends")
    #expect(log.values == ["profile", "profile"])
    withExtendedLifetime(arrivals) {}
  }

  @Test("a shared conditioner's arrivals reach the holder's onArrival; its resets do not")
  func shared() {
    let registry = SharedConditioners()
    let receiver = NotificationReceiver()
    receiver.add(registry.conditioner("login"))
    receiver.add(NotificationConditioner("profile"))
    let log = Recorder<String>()
    let arrivals = receiver.onArrival { log.record($0) }
    registry.arrive("login")
    registry.reset("login")
    receiver.check("login")
    #expect(log.values == ["login"])
    withExtendedLifetime(arrivals) {}
  }

  @Test("a handler may call back into the receiver: it runs outside the lock")
  func reentrant() {
    let receiver = requestsReceiver()
    let arrivals = receiver.onArrival { name in
      if name == "profile" { receiver.check("friends") }
    }
    receiver.check("profile")
    #expect(receiver.remaining("friends") == 0)
    withExtendedLifetime(arrivals) {}
  }

  @Test("a cancelled handler runs no more")
  func cancelled() {
    let receiver = requestsReceiver()
    let log = Recorder<String>()
    let arrivals = receiver.onArrival { log.record($0) }
    arrivals.cancel()
    receiver.check("profile")
    #expect(log.values.isEmpty)
  }

  @Test("listen(to:as:) counts a notification under the conditioner name given")
  func listenAs() {
    let center = NotificationCenter()
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("profile"))
    let log = Recorder<String>()
    let arrivals = receiver.onArrival { log.record($0) }
    let listening = receiver.listen(
      to: Notification.Name("GetUserProfileSuccessNotification"), center: center, as: "profile")
    #expect(!receiver.isVerified)
    let completions = Counter()
    let verified = receiver.onVerified { completions.increment() }
    center.post(name: Notification.Name("GetUserProfileSuccessNotification"), object: nil)
    #expect(completions.count == 1)
    #expect(log.values == ["profile"])
    listening.cancel()
    center.post(name: Notification.Name("GetUserProfileSuccessNotification"), object: nil)
    #expect(completions.count == 1)
    withExtendedLifetime((arrivals, verified)) {}
  }

  @Test("listen(to:object:as:) counts only the given sender")
  func listenAsFromSender() {
    final class Sender: Sendable {}
    let center = NotificationCenter()
    let sender = Sender()
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("profile", minCount: 2))
    let name = Notification.Name("GetUserProfileSuccessNotification")
    let listening = receiver.listen(to: name, center: center, object: sender, as: "profile")
    center.post(name: name, object: Sender())
    #expect(receiver.remaining("profile") == 2)
    center.post(name: name, object: sender)
    #expect(receiver.remaining("profile") == 1)
    withExtendedLifetime(listening) {}
  }
}
