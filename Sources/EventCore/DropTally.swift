import Synchronization

/// Coalesces one registration's drops into reports, so that a burst costs at most two: the
/// first drop after the registration's last call is reported at once, and the drops after it
/// add up until its next call.
package struct DropTally: Sendable {
  /// Drops since the last report, not yet reported.
  private var unreported = 0
  /// Whether a drop was reported since the registration's last call.
  private var inBurst = false

  package init() {}

  /// Counts a drop.
  ///
  /// - Returns: 1 when the drop is reported now; `nil` when it waits for the next call.
  package mutating func drop() -> Int? {
    if inBurst {
      unreported += 1
      return nil
    }
    inBurst = true
    return 1
  }

  /// A call starts, which ends the burst.
  ///
  /// - Returns: The drops to report before the call, if any.
  package mutating func call() -> Int? {
    inBurst = false
    defer { unreported = 0 }
    return unreported > 0 ? unreported : nil
  }
}

/// A flag that lets one caller through, once: the first unobserved drop of a registration is
/// printed, the later ones are not.
package final class PrintedOnce: Sendable {
  private let printed = Atomic<Bool>(false)

  package init() {}

  /// `true` for the first call only.
  package func first() -> Bool {
    !printed.exchange(true, ordering: .relaxed)
  }
}
