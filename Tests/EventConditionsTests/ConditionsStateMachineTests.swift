import Testing

@testable import EventConditions

@Suite("ConditionsStateMachine")
struct ConditionsStateMachineTests {
  /// The set {a: 1 arrival, ignorable; b: 2 arrivals, not ignorable}.
  private static func machine(repeats: Bool) -> ConditionsStateMachine {
    var machine = ConditionsStateMachine(repeats: repeats)
    let result1 = machine.add("a", minCount: 1, ignorable: true)
    #expect(result1)
    let result2 = machine.add("b", minCount: 2, ignorable: false)
    #expect(result2)
    return machine
  }

  private enum Operation: CaseIterable, CustomStringConvertible {
    case arriveA, arriveB, arriveUnknown, ignoreA, ignoreB, reset

    var description: String {
      switch self {
      case .arriveA: "check(a)"
      case .arriveB: "check(b)"
      case .arriveUnknown: "check(x)"
      case .ignoreA: "ignore(a)"
      case .ignoreB: "ignore(b)"
      case .reset: "reset()"
      }
    }
  }

  /// The API's rules, written out for the {a, b} set alone, to check the machine against.
  private struct Reference {
    let repeats: Bool
    var a = 0
    var b = 0
    var aIgnored = false
    var latched = false
    var completions = 0

    var met: Bool { (a >= 1 || aIgnored) && b >= 2 }

    /// Returns what `check` returns.
    mutating func apply(_ operation: Operation) -> Bool? {
      switch operation {
      case .arriveA: a += 1
      case .arriveB: b += 1
      case .arriveUnknown: break
      case .ignoreA: aIgnored = true
      case .ignoreB: break
      case .reset:
        (a, b, aIgnored, latched) = (0, 0, false, false)
        return nil
      }
      if latched { return operation == .ignoreA || operation == .ignoreB ? nil : true }
      guard met else { return operation == .ignoreA || operation == .ignoreB ? nil : false }
      completions += 1
      if repeats { (a, b, aIgnored) = (0, 0, false) } else { latched = true }
      return operation == .ignoreA || operation == .ignoreB ? nil : true
    }

    var remainingA: Int { aIgnored ? 0 : max(0, 1 - a) }
    var remainingB: Int { max(0, 2 - b) }
    var isVerified: Bool { latched || met }
  }

  @Test(
    "every sequence of up to six operations matches the written rules",
    arguments: [true, false])
  func exhaustive(repeats: Bool) {
    // 55,986 sequences: the comparisons are plain Booleans and only a mismatch is recorded, as
    // an #expect per step (over 500,000) held a cooperative thread for seconds and starved the
    // async tests running beside it.
    var sequences: [[Operation]] = [[]]
    var checked = 0
    var mismatches: [String] = []
    for _ in 0..<6 {
      sequences = sequences.flatMap { sequence in
        Operation.allCases.map { sequence + [$0] }
      }
      for sequence in sequences {
        var machine = Self.machine(repeats: repeats)
        var reference = Reference(repeats: repeats)
        var completions = 0
        var matches = true
        for operation in sequence {
          let expected = reference.apply(operation)
          switch operation {
          case .arriveA, .arriveB, .arriveUnknown:
            let name = operation == .arriveA ? "a" : operation == .arriveB ? "b" : "x"
            let evaluation = machine.arrive(name)
            if evaluation.didComplete { completions += 1 }
            matches = matches && evaluation.isVerified == expected
          case .ignoreA, .ignoreB:
            let outcome = machine.ignore(operation == .ignoreA ? "a" : "b")
            if outcome.didComplete { completions += 1 }
            matches = matches && outcome.isAccepted == (operation == .ignoreA)
          case .reset:
            machine.reset()
          }
        }
        matches =
          matches && completions == reference.completions
          && machine.remaining("a") == reference.remainingA
          && machine.remaining("b") == reference.remainingB
          && machine.isVerified == reference.isVerified
        if !matches && mismatches.count < 10 { mismatches.append("\(sequence)") }
        checked += 1
      }
    }
    #expect(checked == 55_986)
    #expect(mismatches.isEmpty, "sequences where the machine and the rules differ: \(mismatches)")
  }

  @Test("a repeating set reports the completing arrival only, and carries no surplus")
  func repeatingCompletion() {
    var machine = Self.machine(repeats: true)
    let result3 = machine.arrive("a")
    #expect(result3 == .none)
    let result4 = machine.arrive("a")
    #expect(result4 == .none)
    let result5 = machine.arrive("b")
    #expect(result5 == .none)
    let result6 = machine.arrive("b")
    #expect(result6 == .init(isVerified: true, didComplete: true))
    #expect(machine.remaining("a") == 1)
    #expect(machine.remaining("b") == 2)
    #expect(!machine.isVerified)
  }

  @Test("a latched set stays verified until reset")
  func latched() {
    var machine = Self.machine(repeats: false)
    _ = machine.arrive("a")
    _ = machine.arrive("b")
    let result7 = machine.arrive("b")
    #expect(result7 == .init(isVerified: true, didComplete: true))
    let result8 = machine.arrive("b")
    #expect(result8 == .init(isVerified: true, didComplete: false))
    let result9 = machine.arrive("x")
    #expect(result9 == .init(isVerified: true, didComplete: false))
    machine.reset()
    #expect(!machine.isVerified)
    let result10 = machine.arrive("a")
    #expect(result10 == .none)
  }

  @Test("a disabled machine drops arrivals and ignores and reports false")
  func disabled() {
    var machine = Self.machine(repeats: false)
    machine.isEnabled = false
    let result11 = machine.arrive("a")
    #expect(result11 == .none)
    let result12 = machine.ignore("a")
    #expect(result12 == .init(isAccepted: false, didComplete: false))
    #expect(machine.remaining("a") == 1)
    machine.isEnabled = true
    _ = machine.arrive("a")
    _ = machine.arrive("b")
    _ = machine.arrive("b")
    machine.isEnabled = false
    let result13 = machine.arrive("a")
    #expect(result13 == .none)
    #expect(machine.isVerified)
  }

  @Test("a duplicate name is refused and changes nothing")
  func duplicate() {
    var machine = Self.machine(repeats: true)
    let result14 = machine.add("a", minCount: 5, ignorable: false)
    #expect(!result14)
    #expect(machine.remaining("a") == 1)
    let result15 = machine.ignore("a")
    #expect(result15.isAccepted)
  }

  @Test("an empty set is never verified")
  func empty() {
    var machine = ConditionsStateMachine(repeats: false)
    let result16 = machine.arrive("a")
    #expect(result16 == .none)
    #expect(!machine.isVerified)
  }

  @Test("removing the last unmet conditioner makes the next evaluation complete")
  func removal() {
    var machine = Self.machine(repeats: true)
    _ = machine.arrive("a")
    machine.remove("b")
    #expect(!machine.contains("b"))
    #expect(machine.isVerified)
    let result17 = machine.arrive("x")
    #expect(result17 == .init(isVerified: true, didComplete: true))
    #expect(machine.remaining("a") == 1)
  }

  @Test("shared counts are read, never consumed, and survive re-arms")
  func shared() {
    var machine = ConditionsStateMachine(repeats: true)
    let result18 = machine.add("login", minCount: 1, ignorable: true, source: .shared(registry: 7))
    #expect(result18)
    let result19 = machine.add("profile", minCount: 1, ignorable: true)
    #expect(result19)
    let result20 = machine.updateShared("login", registry: 8, count: 1, version: 1)
    #expect(!result20)
    #expect(machine.remaining("login") == 1)
    let result21 = machine.updateShared("login", registry: 7, count: 1, version: 1)
    #expect(!result21)
    #expect(machine.remaining("login") == 0)
    let result22 = machine.arrive("login")
    #expect(result22 == .none)
    let result23 = machine.arrive("profile")
    #expect(result23.didComplete)
    #expect(machine.remaining("login") == 0)
    let result24 = machine.arrive("profile")
    #expect(result24.didComplete)
    machine.reset()
    #expect(machine.remaining("login") == 0)
  }

  @Test("a stale shared update never overwrites a newer one")
  func staleUpdate() {
    var machine = ConditionsStateMachine(repeats: true)
    _ = machine.add("login", minCount: 2, ignorable: true, source: .shared(registry: 1))
    _ = machine.updateShared("login", registry: 1, count: 2, version: 5)
    _ = machine.updateShared("login", registry: 1, count: 1, version: 4)
    #expect(machine.remaining("login") == 0)
  }

  @Test("a set of met shared conditioners completes once, then again only after unmet")
  func sharedTransition() {
    var machine = ConditionsStateMachine(repeats: true)
    _ = machine.add("login", minCount: 1, ignorable: true, source: .shared(registry: 1))
    let result25 = machine.updateShared("login", registry: 1, count: 1, version: 1)
    #expect(result25)
    let result26 = machine.updateShared("login", registry: 1, count: 2, version: 2)
    #expect(!result26)
    let result27 = machine.arrive("login")
    #expect(result27 == .none)
    #expect(machine.isVerified)
    let result28 = machine.updateShared("login", registry: 1, count: 0, version: 3)
    #expect(!result28)
    #expect(!machine.isVerified)
    let result29 = machine.updateShared("login", registry: 1, count: 1, version: 4)
    #expect(result29)
  }

  @Test("a shared update while disabled is read but completes nothing")
  func sharedWhileDisabled() {
    var machine = ConditionsStateMachine(repeats: true)
    _ = machine.add("login", minCount: 1, ignorable: true, source: .shared(registry: 1))
    machine.isEnabled = false
    let result30 = machine.updateShared("login", registry: 1, count: 1, version: 1)
    #expect(!result30)
    #expect(machine.remaining("login") == 0)
    machine.isEnabled = true
    let result31 = machine.arrive("login")
    #expect(result31.didComplete)
  }

  @Test("turning repeats on while latched re-arms the set")
  func repeatsOnWhileLatched() {
    var machine = Self.machine(repeats: false)
    _ = machine.arrive("a")
    _ = machine.arrive("b")
    _ = machine.arrive("b")
    machine.setRepeats(true)
    #expect(!machine.isVerified)
    #expect(machine.remaining("b") == 2)
    _ = machine.arrive("a")
    _ = machine.arrive("b")
    let result32 = machine.arrive("b")
    #expect(result32.didComplete)
  }

  @Test("arrivals of one name in a row count against it after the set gains and loses names")
  func repeatedArrivalsAcrossChangesOfTheSet() {
    var machine = ConditionsStateMachine(repeats: false)
    _ = machine.add("a", minCount: 3, ignorable: false)
    _ = machine.arrive("a")
    // Enough new names to make the dictionary grow, which moves every key.
    for index in 0..<64 { _ = machine.add("n\(index)", minCount: 1, ignorable: false) }
    _ = machine.arrive("a")
    #expect(machine.remaining("a") == 1)
    for index in 0..<64 { machine.remove("n\(index)") }
    _ = machine.arrive("a")
    #expect(machine.remaining("a") == 0)
    machine.remove("a")
    _ = machine.add("a", minCount: 2, ignorable: false)
    _ = machine.arrive("a")
    #expect(machine.remaining("a") == 1)
    #expect(machine.remaining("n0") == 0)
  }
}
