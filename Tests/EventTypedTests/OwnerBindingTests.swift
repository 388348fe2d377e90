import EventCore
import EventTestSupport
import EventTyped
import Testing

/// A registration can end without its token's `cancel()`. Its token must still leave the owner
/// it was bound to, or an owner that binds in a loop grows for its whole life (issue 25, on
/// Apple platforms, where tokens ride on their owner). The lists are swept, not detached at
/// once: an owner holds its live tokens, plus at most as many again, plus the first sweep's
/// threshold. On Linux one registry holds every owner's, so its sweeps come later while other
/// tests hold live bindings: serialized, so that these tests' own live tokens do not delay them.
@Suite("Tokens bound to a long-lived owner", .serialized)
struct OwnerBindingTests {
  /// Enough bindings for several sweeps of the owner's list, or of Linux's process-wide
  /// registry while other tests hold a few hundred live bindings in it.
  static let rounds = 10_000
  static let limit = 3_000

  @Test("once-tokens leave the owner after their one call")
  func onceTokensLeave() {
    let owner = Tracked()
    let event = Event<Int>()
    for round in 0..<Self.rounds {
      event.subscribeOnce { _ in }.bind(to: owner)
      event.post(round)
    }
    #expect(OwnerBindings.bindingCount(of: owner) < Self.limit)
  }

  @Test("tokens leave the owner when their observer is unregistered")
  func unregisteredTokensLeave() {
    let owner = Tracked()
    let event = Event<Int>()
    for _ in 0..<Self.rounds {
      let observer = Tracked()
      event.register(observer) { _, _ in }.bind(to: owner)
      event.unregister(observer)
    }
    #expect(OwnerBindings.bindingCount(of: owner) < Self.limit)
  }

  @Test("tokens leave the owner when their observer registers again")
  func replacedTokensLeave() {
    let owner = Tracked()
    let observer = Tracked()
    let event = Event<Int>()
    for _ in 0..<Self.rounds {
      event.register(observer) { _, _ in }.bind(to: owner)
    }
    #expect(event.observerCount == 1)
    #expect(OwnerBindings.bindingCount(of: owner) < Self.limit)
  }

  @Test("tokens leave the owner when their observer is deallocated")
  func deadObserversTokensLeave() {
    let owner = Tracked()
    let event = Event<Int>()
    for round in 0..<Self.rounds {
      event.register(Tracked()) { _, _ in }.bind(to: owner)
      event.post(round)
    }
    #expect(event.observerCount == 0)
    #expect(OwnerBindings.bindingCount(of: owner) < Self.limit)
  }

  @Test("cancelled tokens leave the owner")
  func cancelledTokensLeave() {
    let owner = Tracked()
    for _ in 0..<Self.rounds {
      Subscription {}.bind(to: owner).cancel()
    }
    #expect(OwnerBindings.bindingCount(of: owner) < Self.limit)
  }

  @Test("live tokens stay on the owner, and end with it")
  func liveTokensStay() {
    var owner: Tracked? = Tracked()
    let event = Event<Int>()
    let calls = Counter()
    for _ in 0..<100 {
      event.subscribe { _ in calls.increment() }.bind(to: owner!)
    }
    event.post(1)
    #expect(calls.count == 100)
    #expect(OwnerBindings.bindingCount(of: owner!) >= 100)
    owner = nil
    event.post(2)
    #expect(calls.count == 100)
  }
}
