import EventBroadcast
import EventCore
import EventTestSupport
import Foundation
import Testing

private protocol Refresh {
  func refresh(_ value: Int)
}

/// A nonisolated observer that records where each call ran.
private final class Panel: Refresh, Sendable {
  let values = Recorder<Int>()
  let onMainActor = Recorder<Bool>()
  let onQueue = Recorder<Bool>()
  let arrived = Signal()

  func refresh(_ value: Int) {
    values.record(value)
    onMainActor.record(MainActorDetection.isOnMainActor)
    onQueue.record(DispatchQueue.getSpecific(key: deliveryQueueKey) != nil)
    arrived.fire()
  }
}

private let deliveryQueueKey = DispatchSpecificKey<UInt8>()

private func deliveryQueue(_ label: String) -> DispatchQueue {
  let queue = DispatchQueue(label: label)
  queue.setSpecific(key: deliveryQueueKey, value: 1)
  return queue
}

/// A screen, isolated to the main actor, that registers itself.
@MainActor private final class Screen: Refresh {
  let values = Recorder<Int>()
  let onMainActor = Recorder<Bool>()
  let arrived = Signal()

  init(_ hub: Broadcaster, delivery: Delivery = .synchronous) {
    hub.register((any Refresh).self, observer: self, delivery: delivery)
  }

  nonisolated func refresh(_ value: Int) {
    onMainActor.record(MainActorDetection.isOnMainActor)
    values.record(value)
    arrived.fire()
  }
}

/// An actor observer registered from its own code: a nonisolated witness that reaches its state
/// with `assumeIsolated`, which stops the program off the actor.
private actor Tally: Refresh {
  var total: [Int] = []
  let arrived = Signal()

  func start(_ hub: Broadcaster) {
    hub.register((any Refresh).self, observer: self)
  }

  nonisolated func refresh(_ value: Int) {
    assumeIsolated { $0.total.append(value) }
    arrived.fire()
  }

  /// Notifies from the actor's own code, and reads what arrived before `notify` returned.
  func notifyHere(_ hub: Broadcaster, _ value: Int) -> [Int] {
    hub.notify((any Refresh).self) { $0.refresh(value) }
    return total
  }
}

@Suite("Broadcaster delivery per registration")
struct BroadcasterDeliveryTests {
  let hub = Broadcaster()

  @Test("a .queue(q) observer is called on q, after notify returns, in notify order")
  func queueDelivery() {
    let queue = deliveryQueue("refresh")
    let panel = Panel()
    hub.register((any Refresh).self, observer: panel, delivery: .queue(queue))

    queue.suspend()
    for value in 1...5 { hub.notify((any Refresh).self) { $0.refresh(value) } }
    #expect(panel.values.count == 0)
    queue.resume()

    #expect(drain(queue))
    #expect(panel.values.values == [1, 2, 3, 4, 5])
    #expect(panel.onQueue.values == Array(repeating: true, count: 5))
  }

  @Test("a synchronous nonisolated observer is still called before notify returns")
  func synchronousStaysSynchronous() {
    let panel = Panel()
    hub.register((any Refresh).self, observer: panel)
    hub.register((any Refresh).self, observer: Panel(), delivery: .queue(deliveryQueue("other")))

    hub.notify((any Refresh).self) { $0.refresh(7) }

    #expect(panel.values.values == [7])
  }

  @Test("an observer released before its queued call runs is not called and not kept alive")
  func queuedCallHoldsObserverWeakly() {
    let queue = deliveryQueue("release")
    var panel: Panel? = Panel()
    let released = Weak(panel)
    let calls = panel!.values
    hub.register((any Refresh).self, observer: panel!, delivery: .queue(queue))

    queue.suspend()
    hub.notify((any Refresh).self) { $0.refresh(1) }
    panel = nil
    #expect(released.object == nil)
    queue.resume()

    #expect(drain(queue))
    #expect(calls.count == 0)
    #expect(hub.observerCount((any Refresh).self) == 0)
  }

  @Test("a call queued for an observer that unregisters first does not run")
  func unregisterCancelsQueuedCall() {
    let queue = deliveryQueue("cancel")
    let panel = Panel()
    hub.register((any Refresh).self, observer: panel, delivery: .queue(queue))

    queue.suspend()
    hub.notify((any Refresh).self) { $0.refresh(1) }
    hub.unregister((any Refresh).self, observer: panel)
    queue.resume()

    #expect(drain(queue))
    #expect(panel.values.count == 0)
  }

  @Test("a .mainActor observer notified from a background thread is called on the main actor")
  func mainActorDelivery() async {
    let panel = Panel()
    hub.register((any Refresh).self, observer: panel, delivery: .mainActor)
    let hub = hub

    Thread.detachNewThread {
      for value in 1...20 { hub.notify((any Refresh).self) { $0.refresh(value) } }
    }

    for _ in 1...20 { #expect(await panel.arrived.arrival()) }
    #expect(panel.values.values == Array(1...20))
    #expect(panel.onMainActor.values == Array(repeating: true, count: 20))
  }

  @Test("a screen registered from main-actor code is called on the main actor from any thread")
  @MainActor
  func isolatedRegistration() async {
    let screen = Screen(hub)
    let hub = hub

    Thread.detachNewThread { hub.notify((any Refresh).self) { $0.refresh(1) } }
    #expect(await screen.arrived.arrival())

    hub.notify((any Refresh).self) { $0.refresh(2) }
    // Inline: notify runs on the main actor, with nothing queued for the screen.
    #expect(screen.values.values == [1, 2])
    #expect(screen.onMainActor.values == [true, true])
  }

  @Test("isolation wins over an explicit delivery")
  @MainActor
  func isolationWinsOverDelivery() async {
    let screen = Screen(hub, delivery: .queue(deliveryQueue("ignored")))
    let hub = hub

    Thread.detachNewThread { hub.notify((any Refresh).self) { $0.refresh(1) } }

    #expect(await screen.arrived.arrival())
    #expect(screen.onMainActor.values == [true])
  }

  @Test("a registration with isolation: nil is called where its delivery says")
  @MainActor
  func isolationNilOptsOut() {
    let panel = Panel()
    hub.register((any Refresh).self, observer: panel, delivery: .synchronous, isolation: nil)
    let hub = hub

    #expect(onOtherThread { hub.notify((any Refresh).self) { $0.refresh(1) } })
    #expect(panel.onMainActor.values == [false])
  }

  @Test("a main-actor notify never overtakes a call an earlier background notify queued")
  @MainActor
  func mainActorOrder() async {
    let screen = Screen(hub)
    let hub = hub

    #expect(onOtherThread { hub.notify((any Refresh).self) { $0.refresh(1) } })
    hub.notify((any Refresh).self) { $0.refresh(2) }
    await drainMainQueue()

    #expect(screen.values.values == [1, 2])
  }

  @Test("a body isolated to the main actor runs on the main actor for every observer")
  func isolatedBody() async {
    let panels = [Panel(), Panel()]
    hub.register((any Refresh).self, observer: panels[0])
    hub.register((any Refresh).self, observer: panels[1], delivery: .queue(deliveryQueue("q")))
    let hub = hub

    Thread.detachNewThread {
      hub.notify((any Refresh).self) { @MainActor in $0.refresh(1) }
    }

    for panel in panels { #expect(await panel.arrived.arrival()) }
    #expect(panels.map(\.onMainActor.values) == [[true], [true]])
  }

  @Test("a body written in main-actor code runs inline, before notify returns")
  @MainActor
  func mainActorBodyInline() {
    let panel = Panel()
    hub.register((any Refresh).self, observer: panel, delivery: .queue(deliveryQueue("q")))

    hub.notify((any Refresh).self) { $0.refresh(3) }

    #expect(panel.values.values == [3])
    #expect(panel.onMainActor.values == [true])
  }

  @Test("an actor that registers itself is called on the actor, in notify order")
  func actorObserver() async {
    let tally = Tally()
    await tally.start(hub)

    for value in 1...40 { hub.notify((any Refresh).self) { $0.refresh(value) } }

    for _ in 1...40 { #expect(await tally.arrived.arrival()) }
    #expect(await tally.total == Array(1...40))
  }

  @Test("an actor that registers itself is not kept alive, and its registration ends with it")
  func actorRegistrationIsWeak() async {
    var tally: Tally? = Tally()
    let released = Weak(tally)
    await tally?.start(hub)
    #expect(hub.observerCount((any Refresh).self) == 1)

    tally = nil

    #expect(released.object == nil)
    #expect(hub.observerCount((any Refresh).self) == 0)
  }

  @Test("an actor's own notify calls it inline, before notify returns")
  func actorObserverInline() async {
    let tally = Tally()
    await tally.start(hub)

    #expect(await tally.notifyHere(hub, 1) == [1])
  }
}
