import EventCore

extension Event {
  /// Registers an unbound `@MainActor` method of `observer`, whose parameters are the payload's
  /// elements; the method always runs on the main actor.
  ///
  /// The twin of ``register(_:priority:function:isolation:fileID:line:)-(Observer,_,_,_,_,_)`` that
  /// Swift picks for a method isolated to the main actor, such as a `@MainActor` screen's:
  ///
  /// ```swift
  /// @MainActor final class DownloadsScreen {
  ///   init() {
  ///     Downloads.didFinish.register(self, function: DownloadsScreen.show)
  ///   }
  ///
  ///   func show(_ name: String, _ bytes: Int) {}
  /// }
  /// ```
  ///
  /// It is isolated to the main actor itself, so that a registration made off the main actor
  /// names it: Swift drops the isolation of an unbound method that it converts to a plain
  /// function, and the method would run on the posting thread. From nonisolated code the call
  /// does not compile (`call to main actor-isolated instance method
  /// 'register(_:priority:function:fileID:line:)' in a synchronous nonisolated context`); write
  /// it where the main actor runs, or with `await` from asynchronous code.
  ///
  /// Otherwise the same as the nonisolated form, isolated to the main actor (see ``Event``):
  /// the event's delivery does not apply.
  ///
  /// - Parameters:
  ///   - observer: The object to call, held weakly.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - function: The unbound `@MainActor` method, such as `Screen.show`.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled; you may ignore it.
  /// - Complexity: Amortised O(1).
  @MainActor @inlinable @inline(__always)
  @discardableResult
  public func register<Observer: AnyObject & Sendable, each Element>(
    _ observer: Observer, priority: Int = 0,
    function: @escaping (Observer) -> @MainActor (repeat each Element) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    // The entry calls `function` only on the main actor (its isolation), so dropping the
    // attribute here loses nothing: Swift's conversion keeps the representation.
    let method = function as (Observer) -> (repeat each Element) -> Void
    return register(
      observer, priority: priority, function: method, isolation: MainActor.shared,
      fileID: fileID, line: line)
  }

  /// Registers an unbound `@MainActor` method named through `Self`
  /// (`register(self, function: Self.show)` in a `@MainActor` class); the same as
  /// ``register(_:priority:function:fileID:line:)-(Observer,_,_,_,_)``.
  ///
  /// - Parameters:
  ///   - observer: The object to call, held weakly; it must be an instance of the type that
  ///     declares `function` (checked once, at registration).
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - function: The unbound `@MainActor` method, such as `Self.show`.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled; you may ignore it.
  @MainActor @_disfavoredOverload
  @discardableResult
  public func register<Object: AnyObject & Sendable, Observer: AnyObject & Sendable, each Element>(
    _ observer: Object, priority: Int = 0,
    function: @escaping (Observer) -> @MainActor (repeat each Element) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    let method = function as (Observer) -> (repeat each Element) -> Void
    return register(
      observer, priority: priority, function: method, isolation: MainActor.shared,
      fileID: fileID, line: line)
  }
}
