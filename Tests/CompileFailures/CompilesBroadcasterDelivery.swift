// expect: compiles
//
// 22: the broadcaster's Swift 6 forms: a `@MainActor` screen registered through an isolated
// conformance (its calls hop to the main actor), a `@MainActor protocol` notified from a
// background service with a `{ @MainActor in ... }` body, delivery per registration
// (SwiftNotificationCenter #16), and an async body for actor observers.
import Dispatch
import Events

protocol TitleObserver {
  func titleDidChange(to title: String)
}

@MainActor final class TitleScreen {
  var title = ""
  init() {
    Broadcaster.register((any TitleObserver).self, observer: self)
  }
}

extension TitleScreen: @MainActor TitleObserver {
  func titleDidChange(to title: String) { self.title = title }
}

@MainActor protocol BadgeObserver {
  func badgeDidChange(to count: Int)
}

@MainActor final class BadgeView: BadgeObserver {
  var count = 0
  init() {
    Broadcaster.register((any BadgeObserver).self, observer: self)
  }
  func badgeDidChange(to count: Int) { self.count = count }
}

protocol CacheObserver: Sendable {
  func invalidate(_ key: String)
}

final class DiskCache: CacheObserver {
  let queue = DispatchQueue(label: "disk-cache")
  init() {
    Broadcaster.register((any CacheObserver).self, observer: self, delivery: .queue(queue))
  }
  func invalidate(_ key: String) {}
}

protocol Store: Actor {
  func record(_ value: Int)
}

actor Ledger: Store {
  var values: [Int] = []
  func start() { Broadcaster.register((any Store).self, observer: self) }
  func record(_ value: Int) { values.append(value) }
}

struct Service: Sendable {
  func titleChanged(_ title: String, count: Int) {
    Broadcaster.notify((any TitleObserver).self) { $0.titleDidChange(to: title) }
    Broadcaster.notify((any BadgeObserver).self) { @MainActor in $0.badgeDidChange(to: count) }
    Broadcaster.notify((any CacheObserver).self) { $0.invalidate(title) }
    Broadcaster.notify((any Store).self) { await $0.record(count) }
  }
}
