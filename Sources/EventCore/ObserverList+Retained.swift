extension ObserverList {
  /// What the list retains (or holds) for later registrations, oldest first.
  package var retained: [Payload] {
    state.withLock { Array($0.retention.payloads) }
  }

  /// Retains `payload` as if it had been posted before any registration, delivering it to
  /// nobody: the initial value of a replaying event.
  ///
  /// - Returns: `false`, retaining nothing, when the list does not retain.
  package func seedRetained(_ payload: Payload) -> Bool {
    state.withLock { state in
      switch state.retention.policy {
      case .none:
        return false
      case .last:
        _ = state.retention.record(payload)
      case .untilObserved:
        state.retention.hold(payload)
      }
      return true
    }
  }
}

extension ObserverList {
  /// Takes the oldest payload an `.untilObserved` list holds, if any; the rest stay held.
  package func takeOldestHeld() -> Payload? {
    state.withLock { state in
      // A hold only ever appends, so its oldest payload is at the front.
      guard state.retention.policy == .untilObserved, !state.retention.storage.isEmpty else {
        return nil
      }
      return state.retention.storage.removeFirst()
    }
  }
}
