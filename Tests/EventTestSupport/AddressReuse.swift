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
