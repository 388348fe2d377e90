// expect-error: call to main actor-isolated instance method 'register(_:priority:function:fileID:line:)' in a synchronous nonisolated context
//
// 20.1 per key: a `@MainActor` screen's unbound method registered on a channel by a nonisolated
// coordinator would run on the posting thread; the channel's `@MainActor` twin refuses it, as
// `Event`'s does.
import Events

@MainActor final class Screen {
  func show(_ text: String) {}
}

func wire(_ documents: KeyedEvent<Int, String>, id: Int, to screen: Screen) {
  documents[id].register(screen, function: Screen.show)
}
