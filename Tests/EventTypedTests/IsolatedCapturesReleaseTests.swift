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

@Suite("What an isolated handler captured is released on its actor")
struct IsolatedCapturesReleaseTests {
  @MainActor
  @Test("a main-actor handler's capture deinitializes on main when a background post lets go")
  func mainActorCaptureDeinitsOnMain() async {
    let event = Event<Int>()
    let parked = ParkedPost()
    let onMain = Recorder<Bool>()
    let parker = event.subscribe(parked.handler)
    var model: Model? = Model(onMain)
    let token = event.subscribe { [model] _ in _ = model }
    model = nil
    #expect(parked.start { event.post(1) })
    // The background post holds the storage: the slot waits for it, and it lets the entry go.
    token.cancel()
    #expect(parked.release())
    await drainMainQueue()
    #expect(onMain.values == [true])
    parker.cancel()
  }

  @MainActor
  @Test("an observer registration's captures from main deinitialize on main too")
  func observerHandlerCaptureDeinitsOnMain() async {
    let event = Event<Int>()
    let parked = ParkedPost()
    let onMain = Recorder<Bool>()
    let parker = event.subscribe(parked.handler)
    let screen = Screen()
    var model: Model? = Model(onMain)
    event.register(screen) { [model] _, _ in _ = model }
    model = nil
    #expect(parked.start { event.post(1) })
    event.unregister(screen)
    #expect(parked.release())
    await drainMainQueue()
    #expect(onMain.values == [true])
    parker.cancel()
  }
}

/// A main-actor observer.
@MainActor
private final class Screen {}
