// expect: compiles
//
// Every spelling of the name reaches the same target-action form: nonisolated with a Sendable
// target, on the main actor with a `@MainActor` one, and on an actor with a Sendable one.
import Events
import Foundation

final class Indexer: Sendable {
  func reindex(_ note: Notification) {}
  func reset() {}
}

@MainActor final class Screen {
  func refresh(_ note: Notification) {}
  func reset() {}
}

extension Notification.Name {
  static let modelDidChange = Notification.Name("ModelDidChange")
}

let optionalName: Notification.Name? = nil

func wire(_ center: NotificationCenter, _ indexer: Indexer) -> [Subscription] {
  [
    center.observe(.init("ModelDidChange"), target: indexer, action: Indexer.reindex),
    center.observe(.init(rawValue: "ModelDidChange"), target: indexer, action: Indexer.reset),
    center.observe(.modelDidChange, target: indexer, action: Indexer.reindex),
    center.observe(Notification.Name("ModelDidChange"), target: indexer, action: Indexer.reset),
    center.observe(nil, target: indexer, action: Indexer.reindex),
    center.observe(optionalName, target: indexer, action: Indexer.reset),
    center.observe(
      .init("ModelDidChange"), object: .some(indexer), target: indexer,
      action: Indexer.reindex, delivery: .queue(.main), backlog: .unbounded),
  ]
}

@MainActor func wire(_ center: NotificationCenter, _ screen: Screen) -> [Subscription] {
  [
    center.observe(.init("ModelDidChange"), target: screen, action: Screen.refresh),
    center.observe(.init(rawValue: "ModelDidChange"), target: screen, action: Screen.reset),
    center.observe(.modelDidChange, target: screen, action: Screen.refresh),
    center.observe(nil, target: screen, action: Screen.reset),
    center.observe(optionalName, target: screen, action: Screen.refresh),
  ]
}

func wireFromTask(_ center: NotificationCenter, _ screen: Screen) async -> Subscription {
  await center.observe(.init("ModelDidChange"), target: screen, action: Screen.refresh)
}

actor Coordinator {
  func wire(_ center: NotificationCenter, _ indexer: Indexer) -> [Subscription] {
    [
      center.observe(.init("ModelDidChange"), target: indexer, action: Indexer.reindex),
      center.observe(nil, target: indexer, action: Indexer.reset),
    ]
  }
}
