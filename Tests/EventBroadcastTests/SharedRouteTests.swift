import EventCore
import EventTestSupport
import Foundation
import Testing

@testable import EventBroadcast

/// A class-bound protocol, whose existential is a reference and a witness table: its
/// synchronous registrations share a route per observer type.
private protocol Chime: AnyObject, Sendable {
  func chime(_ value: Int) -> String
}

/// The same protocol's async form, for async notifications.
private protocol Bell: AnyObject, Sendable {
  func ring(_ value: Int) async
}

private final class Low: Chime, Sendable {
  let heard = Recorder<Int>()
  func chime(_ value: Int) -> String {
    heard.record(value)
    return "low"
  }
}

/// Not final: a subclass conforms through it.
private class High: Chime, @unchecked Sendable {
  // `@unchecked Sendable`: its one property is a `Recorder`, itself `Sendable`; the class is not
  // final, so Swift cannot check it.
  let heard = Recorder<Int>()
  func chime(_ value: Int) -> String {
    heard.record(value)
    return "high"
  }
}

/// A subclass, whose conformance is its superclass's: called through it, its override runs.
private final class Higher: High, @unchecked Sendable {
  override func chime(_ value: Int) -> String {
    heard.record(value)
    return "higher"
  }
}

/// An async observer whose first call (of 0) can be held, to tell whether another observer's calls
/// wait behind it.
private final class Ringer: Bell, Sendable {
  let heard = Recorder<Int>()
  let gate: Signal?
  let entered = Signal()
  let finished = Signal()

  init(gate: Signal?) {
    self.gate = gate
  }

  func ring(_ value: Int) async {
    entered.fire()
    if let gate, value == 0 { _ = await gate.arrival() }
    heard.record(value)
    finished.fire()
  }
}

/// A synchronous, nonisolated registration shares its route with the channel's other
/// registrations of its observer's type: these tests fail if a shared route called an observer
/// through another type's witness table, or if what belongs to each registration (its async
/// calls' order and mailbox, its queued main-actor calls) were shared too.
@Suite("Broadcaster shared routes", .timeLimit(.minutes(1)))
struct SharedRouteTests {
  let hub = Broadcaster()

  /// The routes of the registrations of `P`, in registration order.
  private func routes<P>(_ type: P.Type) -> [ObjectIdentifier] {
    let channel = hub.existingChannel(for: ObjectIdentifier(P.self))
    return (channel?.snapshot() ?? []).map { ObjectIdentifier(Broadcaster.route(of: $0)) }
  }

  @Test("observers of one type share a route; of another type, each is called through its own")
  func sharesByType() {
    let lows = (0..<3).map { _ in Low() }
    let highs = (0..<2).map { _ in High() }
    let higher = Higher()
    for (index, low) in lows.enumerated() {
      hub.register((any Chime).self, observer: low)
      if index < highs.count { hub.register((any Chime).self, observer: highs[index]) }
    }
    hub.register((any Chime).self, observer: higher)
    let routes = routes((any Chime).self)
    #expect(routes.count == 6)
    #expect(routes[0] == routes[2] && routes[2] == routes[4])
    #expect(routes[1] == routes[3])
    #expect(routes[0] != routes[1] && routes[0] != routes[5])
    let answers = Recorder<String>()
    hub.notify((any Chime).self) { answers.record($0.chime(7)) }
    #expect(answers.values == ["low", "high", "low", "high", "low", "higher"])
    for low in lows { #expect(low.heard.values == [7]) }
    for high in highs { #expect(high.heard.values == [7]) }
    #expect(higher.heard.values == [7])
  }

  @Test("an observer of a shared route stays weak and is called as itself")
  func sharedStaysWeak() {
    let kept = Low()
    weak var released: Low?
    do {
      let gone = Low()
      released = gone
      hub.register((any Chime).self, observer: gone)
      hub.register((any Chime).self, observer: kept)
      #expect(Set(routes((any Chime).self)).count == 1)
    }
    #expect(released == nil)
    let seen = Recorder<ObjectIdentifier>()
    hub.notify((any Chime).self) { seen.record(ObjectIdentifier($0)) }
    #expect(seen.values == [ObjectIdentifier(kept)])
    #expect(hub.observerCount((any Chime).self) == 1)
  }

  @Test("registrations that share a route each have their own async calls, in order")
  func asyncCallsStayPerRegistration() async {
    let gate = Signal()
    let held = Ringer(gate: gate)
    let free = Ringer(gate: nil)
    hub.register((any Bell).self, observer: held)
    hub.register((any Bell).self, observer: free)
    #expect(Set(routes((any Bell).self)).count == 1)
    for value in 0..<5 { hub.notify((any Bell).self) { await $0.ring(value) } }
    // The held observer's first call waits; the other's calls do not wait behind it.
    #expect(await held.entered.arrival())
    for _ in 0..<5 { #expect(await free.finished.arrival()) }
    #expect(free.heard.values == [0, 1, 2, 3, 4])
    #expect(held.heard.values.isEmpty)
    gate.fire()
    await hub.flush((any Bell).self)
    #expect(held.heard.values == [0, 1, 2, 3, 4])
  }

  @Test("a main-actor body reaches registrations that share a route in order, and flush waits")
  func mainActorBodiesStayPerRegistration() async {
    let first = Low()
    let second = Low()
    hub.register((any Chime).self, observer: first)
    hub.register((any Chime).self, observer: second)
    #expect(Set(routes((any Chime).self)).count == 1)
    let hub = self.hub
    #expect(
      onOtherThread {
        for value in 0..<20 { hub.notify((any Chime).self) { @MainActor in _ = $0.chime(value) } }
      })
    await hub.flush((any Chime).self)
    #expect(first.heard.values == Array(0..<20))
    #expect(second.heard.values == Array(0..<20))
  }
}
