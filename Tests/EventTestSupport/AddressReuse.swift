public import Testing

/// Allocates objects with `make` until one lands at `address`, a dead object's, and returns it;
/// `nil` if none did within `attempts`. For tests that a new object at a dead one's address is
/// never taken for it (run them with the `needsAddressReuse` trait).
///
/// The misses stay alive until the search ends, so that the allocator does not hand the same
/// wrong block back each time.
public func allocate<Object: AnyObject>(
  at address: ObjectIdentifier, attempts: Int = 10_000, _ make: () -> Object
) -> Object? {
  var misses: [Object] = []
  for _ in 0..<attempts {
    let candidate = make()
    if ObjectIdentifier(candidate) == address { return candidate }
    misses.append(candidate)
  }
  return nil
}

/// Skips the running test because the allocator put no new object at a dead one's address,
/// which it needs: `guard let reused = allocate(at: address, ...) else { return try
/// skipWithoutAddressReuse() }`.
///
/// The test proves nothing then, but nothing failed: Apple's allocator may not hand a block back
/// within the tries. From Swift 6.3, Swift Testing reports the test as skipped; Swift 6.2's
/// cannot skip a running test, so there the test returns and passes.
public func skipWithoutAddressReuse(
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #if compiler(>=6.3)
    try Test.cancel("the allocator never reused the address", sourceLocation: sourceLocation)
  #endif
}
