import EventConditions
import Testing

@Test("import EventConditions alone is enough to use Subscription and Delivery")
func reexportsEventCore() {
  let subscription = Subscription {}
  let delivery: Delivery = .queue(DispatchQueue(label: "reexport"))
  _ = delivery
  subscription.cancel()
  #expect(subscription.isCancelled)
}
