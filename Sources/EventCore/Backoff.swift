#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a thread waits for another to leave a short critical window: spin a little, then yield,
/// then sleep in growing steps, so a long wait costs no CPU.
enum Backoff {
  static func pause(_ attempt: Int) {
    if attempt < 64 {
      sched_yield()
    } else {
      usleep(UInt32(min(attempt - 63, 50) * 20))
    }
  }
}
