import EventConditions
import EventTestSupport
import EventTyped
import Testing

@Suite("NotificationReceiver listening to an Event")
struct NotificationReceiverEventTests {
  @Test("each post of the event is one arrival of the name")
  func postsAreArrivals() {
    let pages = Event<Int>()
    let receiver = NotificationReceiver(repeats: true)
    receiver.add(NotificationConditioner("pages", minCount: 3))
    let completions = Counter()
    let fired = receiver.onVerified { completions.increment() }
    let counting = receiver.listen(to: pages, as: "pages")
    pages.post(1)
    pages.post(2)
    #expect(receiver.remaining("pages") == 1)
    #expect(completions.count == 0)
    pages.post(3)
    #expect(completions.count == 1)
    #expect(receiver.remaining("pages") == 3, "the completing arrival re-armed the set")
    withExtendedLifetime((fired, counting)) {}
  }

  @Test("a tuple payload counts the same way, whatever its values")
  func tuplePayload() {
    let synced = Event<(String, Int)>()
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(NotificationConditioner("synced"))
    let counting = receiver.listen(to: synced, as: "synced")
    synced.post("Documents", 12)
    #expect(receiver.isVerified)
    withExtendedLifetime(counting) {}
  }

  @Test("cancelling the subscription stops counting and frees the event's registration")
  func cancelStops() {
    let pages = Event<Int>()
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("pages", minCount: 2))
    let counting = receiver.listen(to: pages, as: "pages")
    #expect(pages.observerCount == 1)
    pages.post(1)
    counting.cancel()
    pages.post(2)
    #expect(receiver.remaining("pages") == 1)
    #expect(pages.observerCount == 0)
  }

  @Test("listening does not keep the receiver alive")
  func receiverNotRetained() {
    let pages = Event<Int>()
    var receiver: NotificationReceiver? = NotificationReceiver()
    let weakReceiver = Weak(receiver)
    receiver?.add(NotificationConditioner("pages"))
    let counting = receiver!.listen(to: pages, as: "pages")
    receiver = nil
    #expect(weakReceiver.object == nil)
    pages.post(1)
    withExtendedLifetime(counting) {}
  }

  @Test("String(reflecting: event) lists the listening receiver at the line that called listen")
  func listedWhereItListens() {
    let pages = Event<Int>()
    let receiver = NotificationReceiver(repeats: true)
    let line = #line + 1
    let counting = receiver.listen(to: pages, as: "pages")
    #expect(
      String(reflecting: pages) == """
        Event<Int>, 1 registration:
          closure, synchronous, EventConditionsTests/NotificationReceiver+EventTests.swift:\(line)
        """)
    withExtendedLifetime(counting) {}
  }
}
