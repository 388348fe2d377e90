// expect-error: main actor-isolated conformance of 'TitleScreen' to 'TitleObserver' cannot be used in nonisolated context
//
// 22.5: a `@MainActor` screen that conforms through an isolated conformance (the compiler's
// fix-it) cannot be registered from nonisolated code, where its calls would run off the main
// actor. Registered from main-actor code, the registration captures the main actor and its
// calls hop there (CompilesBroadcasterDelivery).
import Events

protocol TitleObserver {
  func titleDidChange(to title: String)
}

@MainActor final class TitleScreen {
  var title = ""
}

extension TitleScreen: @MainActor TitleObserver {
  func titleDidChange(to title: String) { self.title = title }
}

func wire(_ screen: TitleScreen) {
  Broadcaster.register((any TitleObserver).self, observer: screen)
}
