import EventTyped
import Testing

@Test("import EventTyped alone is enough to use Subscription and Delivery")
func reexportsEventCore() {
  let subscription = Subscription {}
  let delivery: Delivery = .queue(DispatchQueue(label: "reexport"))
  _ = delivery
  subscription.cancel()
  #expect(subscription.isCancelled)
}
