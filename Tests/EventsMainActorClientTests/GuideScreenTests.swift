import EventTestSupport
import Events
import Foundation
import Testing

/// The screen of the guide "Using Events from UI code", as the guide writes it (change both
/// together).
final class GuideScreen {
  var log: [String] = []
  var tokens = Set<Subscription>()

  func record(_ entry: String) { log.append(entry) }
  func show(_ value: String) { record(value) }

  func start(
    _ event: Event<String>, _ names: Event<String>, _ center: NotificationCenter,
    _ name: Notification.Name
  ) {
    // Observer and owner forms: the screen is held weakly and handed to the handler.
    event.register(self) { screen, value in screen.record(value) }
    center.observe(name, owner: self) { screen, note in screen.record(note.name.rawValue) }
    names.register(self, function: GuideScreen.show)
    // Token-held forms whose token the screen keeps: capture the screen weakly.
    event.subscribe { [weak self] value in self?.record(value) }.store(in: &tokens)
    center.observe(name) { [weak self] note in self?.record(note.name.rawValue) }
      .store(in: &tokens)
  }
}

@Suite("The UI guide's screen")
struct GuideScreenTests {
  @Test("it gets every post, and once released it is deallocated and observes nothing")
  func releasedWithNoCycle() {
    let event = Event<String>()
    let names = Event<String>()
    let center = NotificationCenter()
    let name = Notification.Name("EventsMainActorClientTests.guide")
    var screen: GuideScreen? = GuideScreen()
    let released = Weak(screen)
    screen?.start(event, names, center, name)
    event.post("a")
    names.post("b")
    center.post(name: name, object: nil)
    #expect(screen?.log == ["a", "a", "b", name.rawValue, name.rawValue])
    screen = nil
    #expect(released.object == nil, "the screen's handlers kept it alive")
    event.post("c")
    names.post("d")
    #expect(event.observerCount == 0)
    #expect(names.observerCount == 0)
  }
}
