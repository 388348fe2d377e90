import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// A main-actor model whose `deinit` records whether it ran on the main actor.
@MainActor
private final class Model {
  let onMain: Recorder<Bool>

  init(_ onMain: Recorder<Bool>) {
    self.onMain = onMain
  }

  deinit {
    onMain.record(MainActorDetection.isOnMainActor)

  }
}

/// A nonisolated handler that parks the post of `1` until `resume` fires.
private func subscribeParking(_ event: Event<Int>, parked: Signal, resume: Signal)
  -> Subscription
{
  event.subscribe { value in
    guard value == 1 else { return }
    parked.fire()
    _ = resume.wait()
  }
}

@Suite("What an isolated handler captured is released on its actor")
struct IsolatedCapturesReleaseTests {
  @MainActor
  @Test("a main-actor handler's capture deinitializes on main when a background post lets go")
  func mainActorCaptureDeinitsOnMain() async {
    let event = Event<Int>()
    let parked = Signal()
    let resume = Signal()
    let returned = Signal()
    let onMain = Recorder<Bool>()
    let parker = subscribeParking(event, parked: parked, resume: resume)
    var model: Model? = Model(onMain)
    let token = event.subscribe { [model] _ in _ = model }
    model = nil
    Thread {
      event.post(1)
      returned.fire()
    }.start()
    #expect(await parked.arrival())
    // The background post holds the storage: the slot waits for it, and it lets the entry go.
    token.cancel()
    resume.fire()
    #expect(await returned.arrival())
    await drainMainQueue()
    #expect(onMain.values == [true])
    parker.cancel()
  }

  @MainActor
  @Test("an observer registration's captures from main deinitialize on main too")
  func observerHandlerCaptureDeinitsOnMain() async {
    let event = Event<Int>()
    let parked = Signal()
    let resume = Signal()
    let returned = Signal()
    let onMain = Recorder<Bool>()
    let parker = subscribeParking(event, parked: parked, resume: resume)
    let screen = Screen()
    var model: Model? = Model(onMain)
    event.register(screen) { [model] _, _ in _ = model }
    model = nil
    Thread {
      event.post(1)
      returned.fire()
    }.start()
    #expect(await parked.arrival())
    event.unregister(screen)
    resume.fire()
    #expect(await returned.arrival())
    await drainMainQueue()
    #expect(onMain.values == [true])
    parker.cancel()
  }
}

/// A main-actor observer.
@MainActor
private final class Screen {}
