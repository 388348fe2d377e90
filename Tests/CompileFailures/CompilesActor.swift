// expect: compiles
//
// An actor observes with the actor forms, and registers `Sendable` objects it holds.
import Events
import Foundation

final class Log: Sendable {
  func write(_ line: String) {}
}

actor RateLimiter {
  private var seen: [String] = []
  private let log = Log()
  private var token: Subscription?

  func start(_ requests: Event<String>, center: NotificationCenter) {
    requests.register(self) { limiter, request in limiter.record(request) }
    center.observe(.init("Reset"), owner: self) { limiter, _ in limiter.seen = [] }
    requests.register(log, function: Log.write)
    requests.register(log) { log, request in log.write(request) }
    token = requests.subscribe { request in self.record(request) }
  }

  func record(_ request: String) { seen.append(request) }
}
