// expect: compiles
//
// Server-shaped: nonisolated code registers `Sendable` observers (immutable, or guarded by a
// lock) in every form.
import Events
import Foundation
import Synchronization

final class Metrics: Sendable {
  private let count = Mutex(0)

  func record(_ request: String) { count.withLock { $0 += 1 } }
  func recordNote(_ note: Notification) { count.withLock { $0 += 1 } }
  func tick() { count.withLock { $0 += 1 } }
  static func log(_ request: String) {}
}

final class Server: Sendable {
  let requests = Event<String>()
  let metrics = Metrics()

  func start(_ center: NotificationCenter) -> [Subscription] {
    requests.register(metrics, function: Metrics.record)
    requests.register(metrics) { metrics, request in metrics.record(request) }
    requests.register(Metrics.self, function: Metrics.log)
    requests.register(self, function: Self.handle)
    center.observe(.init("Reload"), owner: metrics) { metrics, note in metrics.recordNote(note) }
    center.observeOnce(.init("Launch")) { _ in print("launched") }
    return [
      requests.subscribe { request in print(request) },
      center.observe(.init("Reload"), delivery: .queue(DispatchQueue(label: "q"))) { _ in },
      center.observe(.init("Reload"), target: metrics, action: Metrics.recordNote),
      center.observe(.init("Reload"), target: metrics, action: Metrics.tick),
    ]
  }

  func handle(_ request: String) {}
}
