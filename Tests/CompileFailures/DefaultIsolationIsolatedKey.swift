// default-isolation: MainActor
// expect-error: main actor-isolated conformance of 'DocumentID' to 'Hashable' cannot satisfy conformance requirement for a 'Sendable' type parameter 'Key'
//
// In an app target (default MainActor isolation), a key type not marked `nonisolated` has a
// main-actor-isolated `Hashable` conformance, which cannot satisfy `KeyedEvent`'s
// `Key: Hashable & Sendable`; declare it `nonisolated struct DocumentID: Hashable, Sendable`.
import Events

struct DocumentID: Hashable, Sendable {
  let raw: Int
}

enum Documents {
  nonisolated static let changed = KeyedEvent<DocumentID, String>()
}
