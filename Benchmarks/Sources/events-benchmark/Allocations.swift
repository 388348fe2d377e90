import MallocCounter

/// Which threads' allocations a case's figure includes.
enum AllocationScope: String, Codable, Sendable {
  /// Only the thread running the loop: synchronous cases, whose every allocation is the post's.
  case thread
  /// Every thread, for cases whose work runs on queues or threads of their own.
  case process
}

/// Counts the heap allocations `body` makes, through the malloc interposer of `MallocCounter`.
///
/// - Returns: `nil` where the interposer is not built (not glibc).
func countAllocations(_ scope: AllocationScope, _ body: () -> Void) -> UInt64? {
  guard malloc_counter_available() else { return nil }
  switch scope {
  case .thread:
    let before = malloc_counter_thread()
    body()
    return malloc_counter_thread() - before
  case .process:
    malloc_counter_set_global(true)
    defer { malloc_counter_set_global(false) }
    let before = malloc_counter_global()
    body()
    return malloc_counter_global() - before
  }
}

private final class Probe {}

@inline(never)
private func makeProbe() -> AnyObject { Probe() }

/// Checks that the counter counts what it should before any figure is trusted: one `malloc`
/// is one allocation, one class instance is one, and a loop of 1,000 `malloc`s is 1,000, on
/// this thread and process-wide.
///
/// - Returns: A line for the report, or `nil` when the counter is not built here.
/// - Throws: When a count is wrong, so no run publishes figures from a broken counter.
func selfTestAllocationCounter() throws(CounterError) -> String? {
  guard malloc_counter_available() else { return nil }
  let oneMalloc = countAllocations(.thread) { malloc_counter_probe(24) }
  let oneObject = countAllocations(.thread) { _ = ObjectIdentifier(makeProbe()) }
  let thousand = countAllocations(.process) {
    for size in 1...1000 { malloc_counter_probe(UInt64(size)) }
  }
  guard oneMalloc == 1, oneObject == 1, thousand == 1000 else {
    throw CounterError(
      message: "malloc counter self-test failed: malloc(24) counted \(oneMalloc ?? 0), one "
        + "class instance \(oneObject ?? 0), 1,000 mallocs \(thousand ?? 0)")
  }
  return "malloc counter self-test passed: malloc(24) = 1, one class instance = 1, "
    + "1,000 mallocs = 1,000"
}

struct CounterError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
