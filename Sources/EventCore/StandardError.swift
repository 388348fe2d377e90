#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the package's warnings go: standard error, unbuffered, one `write` per message, so
/// that lines from several threads never interleave.
package enum StandardError {
  @Sendable package static func emit(_ message: String) {
    var message = message
    message.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      _ = write(STDERR_FILENO, base, bytes.count)
    }
  }
}
