// expect-error: call to main actor-isolated instance method 'save' in a synchronous nonisolated context
//
// 24: a throwing closure written in nonisolated code stays nonisolated: it cannot call a
// `@MainActor` screen's method, which would then run on the posting thread.
import Events

@MainActor final class Screen: Sendable {
  func save(_ text: String) throws {}
}

func wire(_ event: Event<String>, to screen: Screen) {
  event.register(screen) { screen, text in try screen.save(text) }
}
