// expect-error: call to main actor-isolated instance method 'register(_:priority:function:fileID:line:)' in a synchronous nonisolated context
//
// 20.1: a `@MainActor` screen's unbound method registered by a nonisolated coordinator would run
// on the posting thread (Swift drops the method's isolation when it converts it).
import Events

@MainActor final class Screen {
  func show(_ text: String) {}
}

func wire(_ event: Event<String>, to screen: Screen) {
  event.register(screen, function: Screen.show)
}
