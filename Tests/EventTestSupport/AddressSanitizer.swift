public import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// What tests need to know about AddressSanitizer.
public enum AddressSanitizer {
  /// Whether this process runs under AddressSanitizer (`swift test --sanitize=address`).
  ///
  /// Decided at run time, from the symbol the ASan runtime links into every instrumented
  /// process: the compiler defines no `#if` condition that says a sanitizer is on.
  public static let isActive: Bool = {
    // The main program's handle searches the program and every library it loaded, like
    // `RTLD_DEFAULT`, which Glibc's C macro does not bring into Swift.
    guard let program = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(program) }
    return dlsym(program, "__asan_init") != nil
  }()
}

extension Trait where Self == ConditionTrait {
  /// Skips the test under AddressSanitizer, for a test that needs the allocator to put a new
  /// object at a dead object's address.
  ///
  /// ASan's allocator quarantines freed memory precisely so that no new object gets a dead
  /// one's address; such a test cannot hold there, and weakening it would prove nothing.
  public static var needsAddressReuse: Self {
    .disabled(
      if: AddressSanitizer.isActive,
      "needs a dead object's address reused, and ASan's allocator quarantines freed memory")
  }
}
