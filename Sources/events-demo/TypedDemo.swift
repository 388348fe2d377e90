enum TypedDemo {
  @MainActor
  static func run() async -> Bool { false }
}
