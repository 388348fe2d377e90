import Testing

@testable import EventCore

// Serialized: one test calls the check directly, which the other counts.
@Suite("IsolatedHandler's layout check", .serialized)
struct IsolatedHandlerLayoutCheckTests {
  @Test("the library's own check of the reinterpretation passes on this toolchain")
  func checkPasses() {
    #expect(IsolatedHandler.layoutVerified)
    #expect(IsolatedHandler.verifyLayout())
  }

  @Test("the check runs once per process, not once per reinterpreted handler")
  func checkRunsOnce() {
    #expect(IsolatedHandler.layoutVerified)
    let runs = IsolatedHandler.layoutChecks
    #expect(runs >= 1)
    for value in 0..<100 {
      let handler: @isolated(any) @Sendable (Int) -> Void = { @Sendable _ in }
      IsolatedHandler.callable(sendable: handler)(value)
    }
    #expect(IsolatedHandler.layoutChecks == runs)
  }
}
