import EventCore
import Foundation

/// The ``/Foundation/NotificationCenter/onDrop(_:)`` handlers of each center that has had any,
/// where the bounded observations of that center report what they dropped.
///
/// A center's record stays while the center lives (a center is long-lived: most apps have one).
/// Records of dead centers leave when the records have doubled since the last sweep, so a
/// process that makes and drops centers keeps at most twice its live ones.
final class CenterDropHandlers: Sendable {
  static let shared = CenterDropHandlers()

  private struct Record: Sendable {
    let center: WeakReference<NotificationCenter>
    let handlers: ObserverList<Drop>
  }

  private struct Records: Sendable {
    var byCenter: [ObjectIdentifier: Record] = [:]
    var sweepAt = 16
  }

  private let records = Lock(Records())

  /// The handlers of `center`, made by its first ``/Foundation/NotificationCenter/onDrop(_:)``.
  func handlers(of center: NotificationCenter) -> ObserverList<Drop> {
    let id = ObjectIdentifier(center)
    // Dead centers' lists are released after the lock: their entries' handlers are user code.
    var swept: [Record] = []
    let handlers = records.withLock { records -> ObserverList<Drop> in
      // A record whose center died may sit at `center`'s address; `center` replaces it.
      if let record = records.byCenter[id], record.center.object === center {
        return record.handlers
      }
      if records.byCenter.count >= records.sweepAt {
        swept = records.byCenter.values.filter { $0.center.object == nil }
        records.byCenter = records.byCenter.filter { $0.value.center.object != nil }
        records.sweepAt = max(16, records.byCenter.count * 2)
      }
      let handlers = ObserverList<Drop>()
      records.byCenter[id] = Record(center: WeakReference(center), handlers: handlers)
      return handlers
    }
    withExtendedLifetime(swept) {}
    return handlers
  }

  /// Posts `drop` to the handlers of `center`.
  ///
  /// - Returns: Whether a handler was called; `false` has the caller print the drop instead.
  func post(_ drop: Drop, for center: NotificationCenter) -> Bool {
    let id = ObjectIdentifier(center)
    let handlers = records.withLock { records -> ObserverList<Drop>? in
      guard let record = records.byCenter[id], record.center.object === center else { return nil }
      return record.handlers
    }
    return (handlers?.post(drop) ?? 0) > 0
  }
}
