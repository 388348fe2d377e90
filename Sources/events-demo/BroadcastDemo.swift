enum BroadcastDemo {
  @MainActor
  static func run() async -> Bool { false }
}
