// expect: compiles
//
// App-shaped: a `@MainActor` screen registers its own methods, and closures, on the channel of
// the document it shows, with no `Sendable` conformance and no `[weak self]`.
import Events

struct DocumentID: Hashable, Sendable {
  let raw: Int
}

enum Change: Sendable {
  case renamed(String)
  case deleted
}

enum Documents {
  static let changed = KeyedEvent<DocumentID, Change>(delivery: .mainActor)
  static let saved = KeyedEvent<DocumentID, Void>()
}

@MainActor final class DocumentScreen {
  private var title = ""
  private var subscriptions = Set<Subscription>()

  init(_ id: DocumentID) {
    Documents.changed[id].register(self, function: DocumentScreen.apply)
    Documents.saved[id].register(self, function: Self.didSave)
    Documents.changed[id].register(self) { screen, change in screen.apply(change) }
    Documents.changed[id].subscribe { change in self.apply(change) }.store(in: &subscriptions)
    Documents.changed[id].subscribeOnce { _ in self.title += " (edited)" }
  }

  func apply(_ change: Change) {
    if case .renamed(let name) = change { title = name }
  }

  func didSave() {}

  func waitForRename(_ id: DocumentID) async throws -> Change {
    try await Documents.changed[id].next(timeout: .seconds(5)) {
      Documents.changed[id].post(.deleted)
    }
  }
}
