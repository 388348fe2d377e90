import EventRAII
import Testing

@Test("import EventRAII alone is enough to use Subscription and Delivery")
func reexportsEventCore() {
  let subscription = Subscription {}
  let delivery: Delivery = .queue(DispatchQueue(label: "reexport"))
  _ = delivery
  subscription.cancel()
  #expect(subscription.isCancelled)
}
