import EventCore
import Foundation

/// The `object:` filter of an observation: the sender to match by identity, held weakly.
struct SenderFilter: Sendable {
  /// `nil` when every sender matches.
  private let sender: WeakBox?

  init(_ sender: AnyObject?) {
    self.sender = sender.map(WeakBox.init)
  }

  /// Whether `notification` came from the expected sender.
  ///
  /// A sender that died matches nothing: its weak reference reads `nil`, so an unrelated object
  /// allocated later at the same address is never taken for it. The posted notification keeps
  /// its sender alive, so the answer is the same at post time and when a queued delivery runs.
  /// Loads a weak reference: call it outside any lock.
  func accepts(_ notification: Notification) -> Bool {
    guard let sender else { return true }
    guard let expected = sender.object, let posted = notification.object else { return false }
    return (posted as AnyObject) === expected
  }
}
