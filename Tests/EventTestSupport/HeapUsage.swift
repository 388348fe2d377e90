import HeapStatistics

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// What tests need to know about sanitizers other than AddressSanitizer's allocator.
public enum Sanitizers {
  /// Whether this process runs under ThreadSanitizer or AddressSanitizer (`swift test
  /// --sanitize=thread` or `--sanitize=address`), which slow every allocation and atomic.
  ///
  /// Decided at run time, as ``AddressSanitizer/isActive`` is, from the symbols the runtimes
  /// link into every instrumented process: the compiler defines no `#if` condition for them.
  public static let isActive: Bool = symbol("__tsan_init") != nil || symbol("__asan_init") != nil

  /// The address of `name` in the program or a library it loaded, or `nil`.
  static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    guard let program = dlopen(nil, RTLD_NOW) else { return nil }
    defer { dlclose(program) }
    return dlsym(program, name)
  }
}

/// The bytes the process's allocator has handed out and not had back: for tests that memory
/// returns to where it started.
public enum HeapUsage {
  private typealias AllocatedBytes = @convention(c) () -> Int

  /// The sanitizer allocator's count, when a sanitizer replaced `malloc` (glibc's figures then
  /// stay still).
  private static let sanitizerAllocatedBytes: AllocatedBytes? = Sanitizers.symbol(
    "__sanitizer_get_current_allocated_bytes"
  ).map { unsafeBitCast($0, to: AllocatedBytes.self) }

  /// The bytes in use now: the sanitizer allocator's count under a sanitizer, otherwise the
  /// C allocator's (glibc's `mallinfo2().uordblks`, Darwin's zone statistics).
  public static var bytesInUse: Int {
    if let sanitizerAllocatedBytes { return sanitizerAllocatedBytes() }
    return Int(heap_statistics_bytes_in_use())
  }
}
