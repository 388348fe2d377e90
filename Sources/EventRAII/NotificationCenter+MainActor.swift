public import EventCore
public import Foundation

extension NotificationCenter {
  /// Observes notifications by calling a `@MainActor` method of `target` that takes the
  /// notification; the method always runs on the main actor.
  ///
  /// The twin of the target-action form
  /// ``observe(_:object:target:action:delivery:backlog:isolation:fileID:line:)-5q37g``
  /// that Swift picks for a method isolated to the main actor, such as a `@MainActor` screen's:
  ///
  /// ```swift
  /// @MainActor final class Screen {
  ///   private var token: Subscription?
  ///
  ///   init(center: NotificationCenter) {
  ///     token = center.observe(.init("ModelDidChange"), target: self, action: Screen.refresh)
  ///   }
  ///
  ///   func refresh(_ note: Notification) {}
  /// }
  /// ```
  ///
  /// It is isolated to the main actor itself, so that a registration made off the main actor
  /// names it: Swift drops the isolation of an unbound method that it converts to a plain
  /// function, and the method would run on the posting thread. From nonisolated code the call
  /// does not compile (`call to main actor-isolated instance method
  /// 'observe(_:object:target:action:delivery:backlog:fileID:line:)' in a synchronous nonisolated
  /// context`).
  ///
  /// The target is held weakly: once it is deallocated the method is never called again. The
  /// observation lasts until the returned token is cancelled or released. The method runs on the
  /// main actor whichever thread posts, inline when the post is made there; `delivery` does not
  /// apply.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - target: The object whose method is called. It is not retained.
  ///   - action: The unbound `@MainActor` method to call, taking the notification.
  ///   - delivery: Ignored: the method runs on the main actor. Accepted so that the call reads
  ///     as the nonisolated form.
  ///   - backlog: The most calls this observation may have waiting for the main actor, and
  ///     which go when there are more (reported to ``onDrop(_:)``); unbounded by default.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  @MainActor
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name?, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> @MainActor (Notification) -> Void,
    delivery: Delivery = .synchronous, backlog: Backlog = .unbounded,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    // The entry calls `action` only on the main actor (its isolation), so dropping the
    // attribute here loses nothing: Swift's conversion keeps the representation.
    let method = action as (Target) -> (Notification) -> Void
    return observe(
      name, object: object, target: target, action: method, delivery: delivery,
      backlog: backlog, isolation: MainActor.shared, fileID: fileID, line: line)
  }

  /// Observes notifications by calling a `@MainActor` method of `target` that takes no
  /// argument; the method always runs on the main actor.
  ///
  /// The twin of the target-action form
  /// ``observe(_:object:target:action:delivery:backlog:isolation:fileID:line:)-7sbrq``
  /// for a method isolated to the main actor; see
  /// ``observe(_:object:target:action:delivery:backlog:fileID:line:)-meux``.
  ///
  /// - Parameters:
  ///   - name: The name to observe, or `nil` for every notification posted to this center.
  ///   - object: The sender to observe, matched by identity and held weakly; `nil` for any
  ///     sender.
  ///   - target: The object whose method is called. It is not retained.
  ///   - action: The unbound `@MainActor` method to call, taking no argument.
  ///   - delivery: Ignored: the method runs on the main actor.
  ///   - backlog: The most calls this observation may have waiting for the main actor, and
  ///     which go when there are more (reported to ``onDrop(_:)``); unbounded by default.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  @MainActor
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name?, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> @MainActor () -> Void,
    delivery: Delivery = .synchronous, backlog: Backlog = .unbounded,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let method = action as (Target) -> () -> Void
    return observe(
      name, object: object, target: target, action: method, delivery: delivery,
      backlog: backlog, isolation: MainActor.shared, fileID: fileID, line: line)
  }

  /// The `@MainActor` target-action form for a name that is not optional; the same as
  /// ``observe(_:object:target:action:delivery:backlog:fileID:line:)-meux``.
  ///
  /// It pairs with the nonisolated form for a name that is not optional, so that a name written
  /// `.init("…")` leaves the choice between the two to the method's isolation: off the main
  /// actor, a `@MainActor` method does not compile whichever way the name is spelled.
  @MainActor
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> @MainActor (Notification) -> Void,
    delivery: Delivery = .synchronous, backlog: Backlog = .unbounded,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let method = action as (Target) -> (Notification) -> Void
    return observe(
      Optional(name), object: object, target: target, action: method, delivery: delivery,
      backlog: backlog, isolation: MainActor.shared, fileID: fileID, line: line)
  }

  /// The `@MainActor` target-action form for a name that is not optional and a method that
  /// takes no argument; see the form above.
  @MainActor
  public func observe<Target: AnyObject & Sendable>(
    _ name: Notification.Name, object: AnyObject? = nil, target: Target,
    action: @escaping (Target) -> @MainActor () -> Void,
    delivery: Delivery = .synchronous, backlog: Backlog = .unbounded,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let method = action as (Target) -> () -> Void
    return observe(
      Optional(name), object: object, target: target, action: method, delivery: delivery,
      backlog: backlog, isolation: MainActor.shared, fileID: fileID, line: line)
  }
}
