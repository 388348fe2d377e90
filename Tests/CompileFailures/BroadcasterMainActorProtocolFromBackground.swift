// expect-error: call to main actor-isolated instance method 'titleDidChange(to:)' in a synchronous nonisolated context
//
// 22: with a `@MainActor protocol`, a nonisolated body cannot call the observer; the form that
// delivers on the main actor from any thread is a `{ @MainActor in ... }` body
// (CompilesBroadcasterDelivery).
import Events

@MainActor protocol TitleObserver {
  func titleDidChange(to title: String)
}

func announce(_ title: String) {
  Broadcaster.notify((any TitleObserver).self) { $0.titleDidChange(to: title) }
}
