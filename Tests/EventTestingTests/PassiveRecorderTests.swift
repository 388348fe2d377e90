import EventTestSupport
import EventTesting
import EventTyped
import Testing

/// A recorder watches the code under test without changing it: it is no registration of the
/// event's as far as counts, holds and observation changes go.
@Suite("Recorders are passive")
struct PassiveRecorderTests {
  @Test("an untilObserved event still holds posts for the app's first registration")
  func untilObservedStillHolds() {
    let event = Event<Int>(replay: .untilObserved)
    let recorder = EventRecorder(event)
    #expect(event.post(1) == 0)
    #expect(recorder.values == [1])
    #expect(event.retained == [1])
    let late = Recorder<Int>()
    let token = event.subscribe { late.record($0) }
    #expect(late.values == [1])
    token.cancel()
  }

  @Test("counts, isObserved and post's result leave the recorder out")
  func countsLeaveItOut() {
    let event = Event<Int>()
    let recorder = EventRecorder(event)
    #expect(event.observerCount == 0)
    #expect(!event.isObserved)
    #expect(event.post(1) == 0)
    let token = event.subscribe { _ in }
    #expect(event.post(2) == 1)
    #expect(event.observerCount == 1)
    token.cancel()
    #expect(recorder.values == [1, 2])
  }

  @Test("onObservedChange hears nothing of a recorder")
  func noObservationChange() {
    let event = Event<Int>()
    let changes = Recorder<Bool>()
    let hook = event.onObservedChange { changes.record($0) }
    var recorder: EventRecorder<Int>? = EventRecorder(event)
    event.post(1)
    recorder = nil
    #expect(changes.values.isEmpty)
    let token = event.subscribe { _ in }
    token.cancel()
    #expect(changes.values == [true, false])
    hook.cancel()
    _ = recorder
  }

  @Test("expectNoPost leaves what an untilObserved event holds in place")
  func expectNoPostLeavesTheHold() async {
    let event = Event<Int>(replay: .untilObserved)
    event.post(1)
    await expectNoPost(on: event) {}
    #expect(event.retained == [1])
  }

  @Test("unregisterAll leaves the recorder recording")
  func unregisterAllLeavesIt() {
    let event = Event<Int>()
    let recorder = EventRecorder(event)
    event.unregisterAll()
    event.post(1)
    #expect(recorder.values == [1])
  }
}
