// default-isolation: MainActor
// expect-error: call to main actor-isolated instance method 'register(_:priority:function:fileID:line:)' in a synchronous nonisolated context
//
// In an app target (default MainActor isolation), a `nonisolated` helper that registers a
// screen's method.
import Events

final class Screen {
  func show(_ text: String) {}
}

nonisolated func wire(_ event: Event<String>, to screen: Screen) {
  event.register(screen, function: Screen.show)
}
