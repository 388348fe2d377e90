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
}
