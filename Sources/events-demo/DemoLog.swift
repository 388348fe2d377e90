import Foundation

/// The demo's output: one line per event, stamped with the milliseconds since the run started
/// and the queue or thread it happened on.
///
/// Lines come from many threads at once; a lock keeps each line whole and keeps the timestamps
/// in the order the lines appear.
enum DemoLog {
  private static let output = Output()

  /// Makes "now" the origin of the timestamps.
  static func startClock() {
    output.startClock()
  }

  /// Milliseconds since ``startClock()``.
  static var elapsedMilliseconds: Double {
    output.elapsedMilliseconds
  }

  /// Prints the title of a demo.
  static func demo(_ name: String, _ title: String) {
    output.write("\n== \(name): \(title)")
  }

  /// Prints the title of a scenario within a demo.
  static func scenario(_ number: Int, of count: Int, _ title: String) {
    output.write("-- \(number)/\(count) \(title)")
  }

  /// Prints one event, stamped with the time and with where it ran.
  static func event(_ message: String) {
    let context = ExecutionContext.current
    output.write { milliseconds in
      let time = String(format: "%9.1f ms", milliseconds)
      let place = context.padding(toLength: 20, withPad: " ", startingAt: 0)
      return "\(time)  \(place)  \(message)"
    }
  }

  /// Prints the outcome of one check.
  static func check(_ passed: Bool, _ claim: String) {
    output.write("             \(passed ? "✓" : "✗ FAILED:") \(claim)")
  }

  /// Prints a line without a timestamp, such as a summary.
  static func plain(_ line: String) {
    output.write(line)
  }
}

/// The clock and standard output, behind one lock.
///
/// `@unchecked Sendable`: `origin` is read and written only while `lock` is held, and standard
/// output is written only while it is held.
private final class Output: @unchecked Sendable {
  private let lock = NSLock()
  private var origin = ContinuousClock.now

  func startClock() {
    lock.withLock { origin = .now }
  }

  var elapsedMilliseconds: Double {
    lock.withLock { Self.milliseconds(from: origin) }
  }

  func write(_ line: String) {
    write { _ in line }
  }

  /// Formats and prints a line with the time read under the lock, so lines stay in time order.
  func write(_ format: (Double) -> String) {
    lock.withLock {
      let line = format(Self.milliseconds(from: origin))
      // Written straight to the file descriptor: `print` buffers piped output, and a reader
      // (or a crash) should see every line as it happens.
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
  }

  private static func milliseconds(from origin: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - origin
    return Double(elapsed.components.seconds) * 1_000
      + Double(elapsed.components.attoseconds) / 1e15
  }
}
