import EventCore
import EventTestSupport
import Testing

@Suite("SubscriptionBag")
struct SubscriptionBagTests {
  @Test("count is the number of live subscriptions")
  func countsLive() {
    let bag = SubscriptionBag()
    let kept = Subscription {}
    kept.store(in: bag)
    Subscription {}.store(in: bag)
    #expect(bag.count == 2)
    kept.cancel()
    #expect(bag.count == 1)
  }

  @Test("cancelAll cancels every subscription once and empties the bag")
  func cancelAll() {
    let runs = Counter()
    let bag = SubscriptionBag()
    for _ in 0..<5 { Subscription { runs.increment() }.store(in: bag) }
    bag.cancelAll()
    #expect(runs.count == 5)
    #expect(bag.count == 0)
    bag.cancelAll()
    #expect(runs.count == 5)
  }

  @Test("releasing the bag cancels what it holds")
  func deinitCancels() {
    let runs = Counter()
    var bag: SubscriptionBag? = SubscriptionBag()
    Subscription { runs.increment() }.store(in: bag!)
    #expect(runs.count == 0)
    bag = nil
    #expect(runs.count == 1)
  }

  @Test("a long-lived bag drops cancelled tokens as it grows")
  func prunesCancelled() {
    let bag = SubscriptionBag()
    weak var first: Subscription?
    do {
      let subscription = Subscription {}
      first = subscription
      subscription.store(in: bag)
      subscription.cancel()
    }
    for _ in 0..<100 { Subscription {}.store(in: bag) }
    #expect(first == nil)
    #expect(bag.count == 100)
  }

  @Test("a cancellation action may use the bag")
  func reentrantCancel() {
    let bag = SubscriptionBag()
    Subscription { _ = bag.count }.store(in: bag)
    let finished = onOtherThread { bag.cancelAll() }
    #expect(finished, "cancelAll deadlocked: a cancellation action ran under the bag's lock")
  }

  @Test("inserting from many threads loses nothing")
  func concurrentInsert() {
    let bag = SubscriptionBag()
    let tokens = (0..<400).map { _ in Subscription {} }
    DispatchQueue.concurrentPerform(iterations: tokens.count) { tokens[$0].store(in: bag) }
    #expect(bag.count == 400)
  }
}
