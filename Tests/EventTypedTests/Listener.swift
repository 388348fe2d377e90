import EventTestSupport

/// An observer whose methods record what they receive, prefixed with its name.
final class Listener: Sendable {
  let name: String
  let log: Recorder<String>

  init(_ name: String, log: Recorder<String>) {
    self.name = name
    self.log = log
  }

  func fired() {
    log.record(name)
  }

  func received(_ text: String) {
    log.record("\(name):\(text)")
  }

  func receivedPair(_ text: String, _ number: Int) {
    log.record("\(name):\(text),\(number)")
  }

  func receivedLabelled(text: String, number: Int) {
    log.record("\(name) labelled:\(text),\(number)")
  }
}

/// Static functions for type-level registrations; each records into `log`.
enum Analytics {
  static let log = Recorder<String>()

  static func fired() {
    log.record("Analytics")
  }

  static func received(_ text: String) {
    log.record("Analytics:\(text)")
  }

  static func receivedPair(_ text: String, _ number: Int) {
    log.record("Analytics:\(text),\(number)")
  }
}

/// A second type, to tell type-level registrations apart.
enum Metrics {
  static let log = Recorder<String>()

  static func received(_ text: String) {
    log.record("Metrics:\(text)")
  }
}
