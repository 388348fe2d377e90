import Dispatch
import EventCore
import Synchronization

extension Broadcaster {
  /// Waits until every call of the notifications of `protocolType` made before the call has
  /// run: queued, main-actor and actor calls, and the calls of async `notify` bodies.
  ///
  /// The way for a test, or a shutdown, to wait for calls that `notify` does not wait for,
  /// without sleeping or polling:
  ///
  /// ```swift
  /// protocol Saves: AnyObject {
  ///   func save(_ draft: String)
  /// }
  ///
  /// final class Store: Saves, Sendable {
  ///   func save(_ draft: String) {}
  /// }
  ///
  /// func saveDraft(_ broadcaster: Broadcaster, store: Store) async {
  ///   broadcaster.register(
  ///     Saves.self, observer: store, delivery: .queue(DispatchQueue(label: "saves")))
  ///   broadcaster.notify(Saves.self) { $0.save("draft") }
  ///   await broadcaster.flush(Saves.self)  // the store has saved "draft"
  /// }
  /// ```
  ///
  /// The same rules as `Event.flush()`: notifications made after the call are not waited for,
  /// not even those made meanwhile by the calls it waits for; a synchronous call has run when
  /// its `notify` returned; a notification still running on another thread when `flush` is
  /// called is not one made before it. Other protocols' calls are not waited for.
  ///
  /// It never blocks a thread: it suspends. So it may be called from the main actor while the
  /// calls it waits for need the main actor, and they run while it waits. Calls on a
  /// `.queue(q)` registration are waited for by a block enqueued on `q` behind them (on a
  /// concurrent queue, until the earlier blocks have started); those of a bounded backlog
  /// (``init(backlog:)``), which reach `q` in batches, by a marker among them. A call a backlog
  /// dropped is not waited for. A call that never returns keeps `flush` waiting, and main-actor
  /// calls run only while something drains the main queue (an async `main`, `swift test`, a
  /// run loop). A `notify` body isolated to an actor other than the main actor, notified from
  /// off that actor, runs in a job of its own there: `flush` waits for that job too.
  ///
  /// Adds nothing to the cost of a notification. Thread-safe.
  ///
  /// - Parameter protocolType: The protocol whose calls to wait for.
  /// - Complexity: O(*n*) in the number of registrations, plus the calls waited for.
  public func flush<P>(_ protocolType: P.Type) async {
    guard let channel = existingChannel(for: ObjectIdentifier(P.self)) else { return }
    let entries = channel.snapshot()
    // The list waits for its `.queue(q)` registrations, one block per queue; the markers wait
    // for what the routes queue themselves, which the list's entries do not see, and for the
    // jobs of isolated bodies.
    let jobs: @Sendable (@escaping @Sendable () -> Void) -> Void = { [isolatedJobs] done in
      isolatedJobs.afterJobs(of: ObjectIdentifier(channel), done)
    }
    await channel.flush(also: Self.flushMarkers(for: entries) + [jobs])
  }

  /// Waits until every call of the notifications of `protocolType` made with the ``shared``
  /// broadcaster before the call has run.
  ///
  /// The same as `Broadcaster.shared.flush(protocolType)`; see ``flush(_:)-swift.method``.
  /// Suspends, never blocks. Thread-safe.
  ///
  /// ```swift
  /// protocol Saves: AnyObject {
  ///   func save(_ draft: String)
  /// }
  ///
  /// func saveDraft() async {
  ///   Broadcaster.notify(Saves.self) { $0.save("draft") }
  ///   await Broadcaster.flush(Saves.self)
  /// }
  /// ```
  ///
  /// - Parameter protocolType: The protocol whose calls to wait for.
  public static func flush<P>(_ protocolType: P.Type) async {
    await shared.flush(protocolType)
  }

  /// One marker per mailbox with calls waiting (a bounded or an actor's registration's, an
  /// async body's), queued behind them; and one on the main queue if a call is queued there.
  private static func flushMarkers(
    for entries: ContiguousArray<ObserverEntry<Never>>
  ) -> [@Sendable (@escaping @Sendable () -> Void) -> Void] {
    var markers: [@Sendable (@escaping @Sendable () -> Void) -> Void] = []
    for entry in entries {
      // A shared route's registration that never queued a call has no route of its own.
      guard let route = Self.route(of: entry).existingRegistrationRoute(of: entry) else {
        continue
      }
      // A mailbox that was never made has never queued a call.
      if let calls = route.existingCalls {
        let onMainActor = route.kind.isMainActor && route.usesMailbox
        markers.append { done in
          // Calls are queued and draining starts under the lock, so a mailbox that is not
          // draining has run every call.
          if !calls.enqueueMarker(done, onMainActor: onMainActor) { done() }
        }
      }
      if let asyncCalls = route.existingAsyncCalls {
        markers.append { done in
          if !asyncCalls.enqueueMarker(done, onMainActor: false) { done() }
        }
      }
    }
    markers.append { [entries] done in
      // Each call's count drops once it has run: 0 everywhere means none is outstanding.
      // Every registration's, not only the main-actor ones': a body isolated to the main actor
      // is queued there for any registration.
      let queued = entries.contains { $0.hasQueuedCalls }
      guard queued else { return done() }
      DispatchQueue.main.async(execute: done)
    }
    return markers
  }
}
