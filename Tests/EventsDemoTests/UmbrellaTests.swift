import Events
import Testing

@Test("import Events alone is enough to use Subscription")
func umbrellaReexportsEventCore() {
  let bag = SubscriptionBag()
  Subscription {}.store(in: bag)
  #expect(bag.count == 1)
  bag.cancelAll()
  #expect(bag.count == 0)
}
