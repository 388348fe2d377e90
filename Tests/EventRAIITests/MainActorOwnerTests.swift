import EventRAII
import EventTestSupport
import Foundation
import Testing

private extension Notification.Name {
  static let screen = Notification.Name("EventRAIITests.screen")
}

/// A main-actor view model, as an app would write one.
@MainActor
private final class ViewModel {
  var refreshes = 0
  var token: Subscription?

  func bind(to center: NotificationCenter) {
    center.observe(.screen, owner: self, delivery: .mainActor) { model, _ in
      model.refresh()
    }
    token = center.observe(.screen, target: self, action: ViewModel.refresh, delivery: .mainActor)
  }

  func refresh() {
    refreshes += 1
  }
}

@Suite("Main-actor owners")
struct MainActorOwnerTests {
  @MainActor
  @Test("a main-actor owner's handlers run on the main actor, whichever thread posts")
  func mainActorOwner() async {
    let center = NotificationCenter()
    let model = ViewModel()
    model.bind(to: center)
    center.post(name: .screen, object: nil)
    #expect(model.refreshes == 2)
    #expect(onOtherThread { center.post(name: .screen, object: nil) })
    await drainMainQueue()
    #expect(model.refreshes == 4)
  }
}
