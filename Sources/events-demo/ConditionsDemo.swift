enum ConditionsDemo {
  @MainActor
  static func run(seed: UInt64) async -> Bool { false }
}
