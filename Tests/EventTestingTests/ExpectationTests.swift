import EventRAII
import EventTestSupport
import EventTesting
import EventTyped
import Foundation
import Testing

@Suite("EventTesting expectations")
struct ExpectationTests {
  final class Screen: Sendable {
    let log: DeliveryLog<String>

    init(_ event: Event<Int>, log: DeliveryLog<String>) {
      self.log = log
      event.register(self) { screen, value in screen.log.record("screen \(value)") }
    }
  }

  @Test("expectReleased passes for an object its registrations do not keep alive")
  func released() async {
    let event = Event<Int>()
    await expectReleased { Screen(event, log: DeliveryLog()) }
  }

  @Test("expectReleased records an issue for an object something keeps alive")
  func retained() async {
    let keeper = Recorder<Screen>()
    await withKnownIssue {
      await expectReleased(within: .milliseconds(10)) {
        let screen = Screen(Event<Int>(), log: DeliveryLog())
        keeper.record(screen)
        return screen
      }
    }
  }

  @Test("ReleaseWatch waits for a release that a queued delivery delays")
  func releaseAfterQueuedDelivery() async {
    let queue = DispatchQueue(label: "holding")
    let event = Event<Int>(delivery: .queue(queue))
    var screen: Screen? = Screen(event, log: DeliveryLog())
    let watch = ReleaseWatch(screen!)
    queue.suspend()
    event.post(1)
    screen = nil
    queue.resume()
    await watch.expectReleased()
    #expect(watch.isReleased)
  }

  @Test("a released observer gets no delivery: expectNothing(after:) flushes, then checks")
  func releasedObserverGetsNothing() async {
    let event = Event<Int>(delivery: .queue(DispatchQueue(label: "nothing")))
    let log = DeliveryLog<String>()
    var screen: Screen? = Screen(event, log: log)
    _ = screen
    screen = nil
    event.post(1)
    await log.expectNothing(after: event)
    event.subscribe { log.record("late \($0)") }.cancel()
    let live = event.subscribe { log.record("live \($0)") }
    event.post(2)
    await withKnownIssue { await log.expectNothing(after: event) }
    withExtendedLifetime(live) {}
  }

  @Test("DeliveryLog.expect checks the order of deliveries across handlers")
  func order() async {
    let event = Event<Int>(delivery: .queue(DispatchQueue(label: "order")))
    let log = DeliveryLog<String>()
    let tokens = [
      event.subscribe { log.record("first \($0)") },
      event.subscribe { log.record("second \($0)") },
    ]
    event.post(1)
    event.post(2)
    await log.expect(["first 1", "second 1", "first 2", "second 2"])
    await withKnownIssue {
      await log.expect(["second 1", "first 1", "first 2", "second 2"])
    }
    withExtendedLifetime(tokens) {}
  }

  @Test("expectNoPost passes when work posts nothing, and records an issue otherwise")
  func noPost() async {
    let event = Event<Int>()
    await expectNoPost(on: event) {}
    await withKnownIssue {
      await expectNoPost(on: event) { event.post(1) }
    }
  }

  @Test("expectNoPost counts posts made by queued handlers of posts inside work")
  func noPostFromQueuedHandlers() async {
    let trigger = Event<Int>(delivery: .queue(DispatchQueue(label: "trigger")))
    let result = Event<Int>()
    let token = trigger.subscribe { result.post($0) }
    await withKnownIssue {
      await expectNoPost(on: result) {
        trigger.post(1)
        await trigger.flush()
      }
    }
    withExtendedLifetime(token) {}
  }

  @Test("expectNoNotification counts notifications posted by queued observers of work's posts")
  func noNotificationFromQueuedObservers() async {
    let center = NotificationCenter()
    let trigger = Notification.Name("ExpectationTests.trigger")
    let result = Notification.Name("ExpectationTests.result")
    let token = center.observe(trigger, delivery: .queue(DispatchQueue(label: "repost"))) { _ in
      center.post(name: result, object: nil)
    }
    await withKnownIssue {
      // No flush inside `work`: expectNoNotification waits for the center's deliveries itself.
      await expectNoNotification(result, center: center) {
        center.post(name: trigger, object: nil)
      }
    }
    withExtendedLifetime(token) {}
  }
}
