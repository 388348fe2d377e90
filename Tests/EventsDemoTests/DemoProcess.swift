// Foundation has `Process` on macOS and Linux only: a test build for an iOS, tvOS, watchOS or
// visionOS simulator leaves these tests out.
#if os(macOS) || os(Linux)
  import Foundation

  /// Runs the built `events-demo` executable as a separate process.
  struct DemoProcess {
    /// What one run printed and how it ended.
    struct Outcome {
      let status: Int32
      let stdout: String
      let stderr: String
      /// Wall-clock time from launch to exit.
      let elapsed: Duration
    }

    /// Why a run could not be observed.
    struct Failure: Error, CustomStringConvertible {
      let description: String
    }

    /// The executable, found next to the test bundle in the products directory.
    let executable: URL

    /// Finds the executable that `swift build` / `swift test` produced.
    ///
    /// The products directory (`.build/debug`, `.build/<triple>/debug`, or wherever
    /// `--scratch-path` and `--sanitize` put it) holds the test bundle and the executable side by
    /// side, so the bundle's location is tried first; `EVENTS_DEMO_PATH` overrides, and a path
    /// relative to this file is the last resort.
    init() throws {
      let fileManager = FileManager.default
      var directories: [URL] = []
      let bundles = [Bundle(for: BundleMarker.self), Bundle.main] + Bundle.allBundles
      for bundle in bundles {
        // On Apple platforms the bundle is a directory `….xctest`; on Linux, an executable.
        directories.append(bundle.bundleURL.deletingLastPathComponent())
        if let executable = bundle.executableURL {
          directories.append(executable.deletingLastPathComponent())
        }
      }
      let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      let candidates: [URL]
      if let override = ProcessInfo.processInfo.environment["EVENTS_DEMO_PATH"] {
        candidates = [URL(fileURLWithPath: override)]
      } else {
        candidates =
          directories.map { $0.appendingPathComponent("events-demo") }
          + [packageRoot.appendingPathComponent(".build/debug/events-demo")]
      }
      guard
        let found = candidates.first(where: {
          var isDirectory: ObjCBool = false
          return fileManager.fileExists(atPath: $0.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue && fileManager.isExecutableFile(atPath: $0.path)
        })
      else {
        let tried = candidates.map(\.path).joined(separator: "\n  ")
        throw Failure(description: "events-demo not found; tried:\n  \(tried)")
      }
      executable = found
    }

    /// Runs the demo with `arguments` and waits for it to exit, for at most `timeout`.
    ///
    /// Output goes to temporary files rather than pipes, so a chatty run cannot fill a pipe
    /// buffer and stall while nobody reads it.
    func run(_ arguments: String..., timeout: Duration = .seconds(60)) async throws -> Outcome {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("events-demo-tests-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let stdoutURL = directory.appendingPathComponent("stdout")
      let stderrURL = directory.appendingPathComponent("stderr")
      try Data().write(to: stdoutURL)
      try Data().write(to: stderrURL)
      let stdout = try FileHandle(forWritingTo: stdoutURL)
      let stderr = try FileHandle(forWritingTo: stderrURL)

      let process = Process()
      process.executableURL = executable
      process.arguments = arguments
      process.standardOutput = stdout
      process.standardError = stderr
      let clock = ContinuousClock()
      let start = clock.now
      let exited = await withCheckedContinuation {
        (continuation: CheckedContinuation<Bool, Never>) in
        let once = ResumeOnce(continuation)
        process.terminationHandler = { _ in once.resume(true) }
        do {
          try process.run()
        } catch {
          once.resume(false)
          return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) {
          if once.resume(false) { process.terminate() }
        }
      }
      let elapsed = clock.now - start
      try stdout.close()
      try stderr.close()
      guard exited else {
        throw Failure(description: "events-demo \(arguments) did not exit within \(timeout)")
      }
      return Outcome(
        status: process.terminationStatus,
        stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
        stderr: try String(contentsOf: stderrURL, encoding: .utf8),
        elapsed: elapsed)
    }
  }

  /// A class of this test bundle, to find the bundle with `Bundle(for:)`.
  private final class BundleMarker {}

  /// Resumes a continuation once, whichever of exit, launch failure or timeout comes first.
  ///
  /// `@unchecked Sendable`: `continuation` is read and cleared only while `lock` is held.
  private final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) {
      self.continuation = continuation
    }

    /// Resumes with `value` unless already resumed.
    ///
    /// - Returns: Whether this call resumed it.
    @discardableResult
    func resume(_ value: Bool) -> Bool {
      let pending = lock.withLock {
        defer { continuation = nil }
        return continuation
      }
      pending?.resume(returning: value)
      return pending != nil
    }
  }

  extension Duration {
    fileprivate var seconds: Double {
      Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
  }
#endif
