#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// Runs `body` in an autorelease pool where there is one (Apple platforms), so that what
/// Foundation autoreleased meanwhile, a center or a notification's sender, is released when it
/// returns, before a test checks that it is gone. Elsewhere it just runs `body`.
public func withAutoreleasePool<Result>(_ body: () throws -> Result) rethrows -> Result {
  #if canImport(ObjectiveC)
    try autoreleasepool(invoking: body)
  #else
    try body()
  #endif
}
