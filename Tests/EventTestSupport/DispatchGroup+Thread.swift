public import Dispatch
import Foundation

extension DispatchGroup {
  /// Runs `body` on a thread of its own, as part of the group, for the reason `onOtherThread`
  /// gives: a block on `DispatchQueue.global()` can wait seconds to start while other tests
  /// block the queue's workers.
  public func onNewThread(_ body: @escaping @Sendable () -> Void) {
    enter()
    Thread {
      body()
      self.leave()
    }.start()
  }
}
