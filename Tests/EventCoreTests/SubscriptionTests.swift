import EventCore
import EventTestSupport
import Testing

@Suite("Subscription")
struct SubscriptionTests {
  @Test("cancel runs the cancellation action exactly once")
  func cancelIsIdempotent() {
    let runs = Counter()
    let subscription = Subscription { runs.increment() }
    #expect(!subscription.isCancelled)
    subscription.cancel()
    subscription.cancel()
    #expect(subscription.isCancelled)
    #expect(runs.count == 1)
  }

  @Test("releasing the last reference cancels")
  func deinitCancels() {
    let runs = Counter()
    var subscription: Subscription? = Subscription { runs.increment() }
    #expect(runs.count == 0)
    subscription = nil
    #expect(subscription == nil)
    #expect(runs.count == 1)
  }

  @Test("cancel racing on many threads runs the action once")
  func concurrentCancelRunsOnce() {
    for _ in 0..<200 {
      let runs = Counter()
      let subscription = Subscription { runs.increment() }
      DispatchQueue.concurrentPerform(iterations: 8) { _ in subscription.cancel() }
      #expect(runs.count == 1)
    }
  }

  @Test("a set keeps its subscriptions alive and removing one cancels it")
  func storeInSet() {
    let runs = Counter()
    var set = Set<Subscription>()
    Subscription { runs.increment() }.store(in: &set)
    Subscription { runs.increment() }.store(in: &set)
    #expect(set.count == 2)
    #expect(runs.count == 0)
    set.removeFirst()
    #expect(runs.count == 1)
    set.removeAll()
    #expect(runs.count == 2)
  }

  @Test("equality and hashing follow identity")
  func identity() {
    let first = Subscription {}
    let second = Subscription {}
    #expect(first == first)
    #expect(first != second)
    #expect(Set([first, first, second]).count == 2)
  }

  @Test("a bound subscription lives as long as its owner, then cancels")
  func bindKeepsAliveWhileOwnerLives() {
    let runs = Counter()
    var owner: Tracked? = Tracked()
    let weakOwner = Weak(owner)
    weak var weakSubscription: Subscription?
    do {
      let subscription = Subscription { runs.increment() }.bind(to: owner!)
      weakSubscription = subscription
    }
    #expect(weakSubscription != nil, "the owner keeps the subscription alive")
    #expect(weakSubscription?.isCancelled == false)
    #expect(runs.count == 0)
    owner = nil
    #expect(weakOwner.object == nil, "binding does not retain the owner")
    if let subscription = weakSubscription {
      #expect(subscription.isCancelled)
    }
    #expect(runs.count == 1)
  }

  @Test("reading isCancelled after the owner died cancels a kept token")
  func bindCancelsOnRead() {
    let runs = Counter()
    var owner: Tracked? = Tracked()
    let subscription = Subscription { runs.increment() }.bind(to: owner!)
    #expect(!subscription.isCancelled)
    owner = nil
    #expect(subscription.isCancelled)
    #expect(runs.count == 1)
    subscription.cancel()
    #expect(runs.count == 1)
  }

  @Test("a subscription bound to several owners ends with the first to go")
  func bindToSeveralOwners() {
    var first: Tracked? = Tracked("first")
    let second = Tracked("second")
    let subscription = Subscription {}.bind(to: first!).bind(to: second)
    #expect(!subscription.isCancelled)
    first = nil
    #expect(subscription.isCancelled)
  }

  @Test("bindings of dead owners are released without any call by the user")
  func bindingsAreSwept() {
    let cancelled = Counter()
    for _ in 0..<500 {
      let owner = Tracked()
      Subscription { cancelled.increment() }.bind(to: owner)
    }
    // Each owner died at the end of its iteration; the registry's sweeps, triggered by later
    // bindings, cancel and release what they held.
    #expect(cancelled.count >= 400)
  }
}
