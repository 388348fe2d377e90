// Stand-in for EventCore's Lock, for compiling ChannelIndex.swift in Embedded Swift on a 32-bit
// CPU: same interface, no mutex (this is only compiled, never run).
public struct Lock<State>: @unchecked Sendable {
  final class Storage {
    var state: State
    init(_ state: State) { self.state = state }
  }

  let storage: Storage

  public init(_ state: State) {
    storage = Storage(state)
  }

  public func withLock<Result>(_ body: (inout State) -> Result) -> Result {
    body(&storage.state)
  }
}
