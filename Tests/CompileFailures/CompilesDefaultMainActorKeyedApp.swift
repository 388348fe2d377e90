// default-isolation: MainActor
// expect: compiles
//
// An app target as Xcode creates it (default MainActor isolation), with one channel per
// document: the key type is `nonisolated` (its `Hashable` conformance then satisfies `Key`),
// and the keyed event a `nonisolated static let`, so that code on any actor may post to it.
import Events

nonisolated struct DocumentID: Hashable, Sendable {
  let raw: Int
}

enum Documents {
  nonisolated static let changed = KeyedEvent<DocumentID, String>()
}

final class DocumentScreen {
  private var title = ""
  private var subscriptions = Set<Subscription>()

  init(_ id: DocumentID) {
    Documents.changed[id].register(self, function: DocumentScreen.rename)
    Documents.changed[id].register(self, function: Self.rename)
    Documents.changed[id].register(self) { screen, name in screen.title = name }
    Documents.changed[id].subscribe { name in self.title = name }.store(in: &subscriptions)
  }

  func rename(_ name: String) { title = name }
}

nonisolated final class Store: Sendable {
  /// A background save posts to the document's key from nonisolated code.
  func saved(_ id: DocumentID, as name: String) {
    Documents.changed.post(name, to: id)
  }

  func awaitRename(of id: DocumentID) async throws -> String {
    try await Documents.changed[id].next(timeout: .seconds(5)) { self.saved(id, as: "Notes") }
  }
}
