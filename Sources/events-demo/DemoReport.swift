/// Runs the scenarios of one demo and tells whether each did what the demo claims.
///
/// A scenario is verified when every ``check(_:_:)`` it made held. The summary line, such as
/// `typed: 5 scenarios verified`, is what the tests look for.
@MainActor
final class DemoReport {
  let name: String
  private let scenarioCount: Int
  private var started = 0
  private var verified = 0
  private var currentPassed = true

  init(name: String, title: String, scenarios: Int) {
    self.name = name
    self.scenarioCount = scenarios
    DemoLog.demo(name, title)
  }

  /// Runs one scenario under its title.
  func scenario(_ title: String, _ body: () async -> Void) async {
    started += 1
    currentPassed = true
    DemoLog.scenario(started, of: scenarioCount, title)
    await body()
    if currentPassed { verified += 1 }
  }

  /// Prints whether `claim` held, and fails the scenario when it did not.
  func check(_ passed: Bool, _ claim: String) {
    DemoLog.check(passed, claim)
    if !passed { currentPassed = false }
  }

  /// Prints the summary line.
  ///
  /// - Returns: Whether every scenario ran and was verified.
  func finish() -> Bool {
    let passed = verified == scenarioCount && started == scenarioCount
    if passed {
      DemoLog.plain("\(name): \(verified) scenarios verified")
    } else {
      DemoLog.plain("\(name): FAILED, \(verified) of \(scenarioCount) scenarios verified")
    }
    return passed
  }
}
