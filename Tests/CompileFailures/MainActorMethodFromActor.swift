// expect-error: call to main actor-isolated instance method 'register(_:priority:function:fileID:line:)' in a synchronous actor-isolated context
//
// A `@MainActor` method registered from another actor would run on that actor.
import Events

@MainActor final class Screen {
  func show(_ text: String) {}
}

actor Coordinator {
  func wire(_ event: Event<String>, to screen: Screen) {
    event.register(screen, function: Screen.show)
  }
}
