import EventTestSupport
import Testing

@testable import EventCore

private func subscribe(
  _ list: ObserverList<Int>, delivery: Delivery, _ handler: @escaping @Sendable (Int) -> Void
) -> Subscription {
  list.subscribe(ObserverEntry(delivery: delivery, handler: handler), endsWithToken: true)
}

@Suite("Delivery")
struct DeliveryTests {
  @Test("synchronous delivery runs on the posting thread before post returns")
  func synchronous() {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    let token = subscribe(list, delivery: .synchronous) { log.record($0) }
    list.post(1)
    #expect(log.values == [1])
    withExtendedLifetime(token) {}
  }

  @Test("queue delivery runs on that queue, in post order, and post returns at once")
  func queueDelivery() {
    let queue = DispatchQueue(label: "delivery")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "delivery")
    let log = Recorder<Int>()
    let offQueue = Counter()
    let list = ObserverList<Int>()
    let token = subscribe(list, delivery: .queue(queue)) { value in
      if DispatchQueue.getSpecific(key: key) != "delivery" { offQueue.increment() }
      log.record(value)
    }
    let hold = Signal()
    queue.async { _ = hold.wait() }
    for value in 0..<100 { list.post(value) }
    #expect(log.count == 0, "queue delivery ran inline")
    hold.fire()
    #expect(drain(queue))
    #expect(log.values == Array(0..<100))
    #expect(offQueue.count == 0)
    withExtendedLifetime(token) {}
  }

  @Test("a delivery queued before cancel never runs")
  func queuedDeliveryCancelled() {
    let queue = DispatchQueue(label: "cancelled")
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    let token = subscribe(list, delivery: .queue(queue)) { log.record($0) }
    let hold = Signal()
    queue.async { _ = hold.wait() }
    list.post(1)
    token.cancel()
    hold.fire()
    #expect(drain(queue))
    #expect(log.values.isEmpty)
  }

  @Test("a deallocated observer with a queued delivery is not called")
  func queuedDeliveryToReleasedObserver() {
    let queue = DispatchQueue(label: "released")
    let list = ObserverList<Int>()
    let calls = Counter()
    var observer: Tracked? = Tracked()
    let weakObserver = Weak(observer)
    let entry = ObserverEntry<Int>(observer: observer!, keyed: true, delivery: .queue(queue)) {
      _, _ in calls.increment()
    }
    _ = list.subscribe(entry, endsWithToken: false)
    let hold = Signal()
    queue.async { _ = hold.wait() }
    list.post(1)
    observer = nil
    #expect(weakObserver.object == nil, "a queued delivery must not retain the observer")
    hold.fire()
    #expect(drain(queue))
    #expect(calls.count == 0)
  }

  @MainActor
  @Test("main-actor delivery runs inline when the post is on the main actor")
  func mainActorInline() {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    let token = subscribe(list, delivery: .mainActor) { log.record($0) }
    #expect(MainActorDetection.isOnMainActor)
    list.post(1)
    #expect(log.values == [1])
    withExtendedLifetime(token) {}
  }

  @MainActor
  @Test("main-actor delivery from another thread is scheduled onto the main actor in order")
  func mainActorScheduled() async {
    let list = ObserverList<Int>()
    let log = Recorder<Int>()
    let offMain = Counter()
    let token = subscribe(list, delivery: .mainActor) { value in
      if !MainActorDetection.isOnMainActor { offMain.increment() }
      log.record(value)
    }
    let posted = onOtherThread {
      #expect(!MainActorDetection.isOnMainActor)
      for value in 0..<10 { list.post(value) }
    }
    #expect(posted)
    #expect(log.count == 0, "the main actor is busy running this test")
    await drainMainQueue()
    #expect(log.values == Array(0..<10))
    #expect(offMain.count == 0)
    withExtendedLifetime(token) {}
  }
}

@Suite("Re-registration")
struct ReRegistrationTests {
  @Test("re-registering an observer with a delivery queued reaches neither handler")
  func reRegistrationDropsQueuedDelivery() {
    let queue = DispatchQueue(label: "re-registration")
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let observer = Tracked()
    func register(_ label: String) {
      let entry = ObserverEntry<Int>(observer: observer, keyed: true, delivery: .queue(queue)) {
        _, value in log.record("\(label):\(value)")
      }
      _ = list.subscribe(entry, endsWithToken: false)
    }
    register("old")
    let hold = Signal()
    queue.async { _ = hold.wait() }
    list.post(1)
    register("new")
    list.post(2)
    hold.fire()
    #expect(drain(queue))
    #expect(log.values == ["new:2"])
  }
}
