import EventCore

extension Event {
  /// Registers a throwing closure for as long as the returned token lives; what it throws goes
  /// to ``errors``, and the other handlers still run.
  ///
  /// ```swift
  /// Inbox.didReceive.subscribe { message in try store.save(message) }
  ///   .store(in: &subscriptions)
  /// ```
  ///
  /// Otherwise the same as ``subscribe(priority:_:fileID:line:)-9ws6a``. Swift picks this form
  /// only for a closure that throws (one with `try` outside a `do`/`catch`).
  ///
  /// When the closure throws, the error is posted to ``errors`` as a ``HandlerError`` that
  /// names where this call was written, on the thread (or actor) the closure ran on, before the
  /// post reaches the next handler. While nothing observes ``errors``, the first error of this
  /// registration is printed to standard error instead, and later ones print nothing.
  ///
  /// - Parameters:
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run for each post; it may throw.
  ///   - fileID: Where the registration was written, for ``HandlerError``; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that keeps the registration alive: cancel or release it to end it.
  /// - Complexity: Amortised O(1); one allocation more than ``subscribe(priority:_:fileID:line:)-9ws6a`` per
  ///   registration, none per post.
  @_disfavoredOverload
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let site = throwSite(fileID: fileID, line: line)
    let call = IsolatedHandler.callable(throwing: handler)
    let entry = ObserverEntry(delivery: delivery, isolation: handler.isolation) {
      (payload: Payload) in
      do { try call(payload) } catch { site.report(error) }
    }
    return add(entry, .closure, priority: priority, fileID: fileID, line: line, endsWithToken: true)
  }

  /// Registers a throwing closure that receives `observer` and the payload; what it throws goes
  /// to ``errors``, and the other handlers still run.
  ///
  /// ```swift
  /// Inbox.didReceive.register(self) { screen, message in try screen.show(message) }
  /// ```
  ///
  /// Otherwise the same as ``register(_:priority:handler:fileID:line:)-9g6t2``. Swift picks
  /// this form only for a closure that throws. The errors reach ``errors`` as
  /// ``subscribe(priority:_:fileID:line:)-6uz27`` describes.
  ///
  /// - Parameters:
  ///   - observer: The object to hand to `handler`, held weakly; `Sendable`.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run for each post, with the observer and the payload; it may
  ///     throw.
  ///   - fileID: Where the registration was written, for ``HandlerError``; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled. The registration lasts as
  ///   long as the observer, so you may ignore the token.
  /// - Complexity: Amortised O(1); no allocation per post.
  /// - Precondition: `observer` is a class instance, not a value converted to `AnyObject`
  ///   (which would be a new box on every conversion, dead at once).
  @_disfavoredOverload
  @discardableResult
  public func register<Observer: AnyObject & Sendable>(
    _ observer: Observer, priority: Int = 0,
    @_inheritActorContext handler:
      @escaping @isolated(any) @Sendable (Observer, Payload) throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    ObserverObject.refuseBoxedValue(observer, in: "Event.register")
    let site = throwSite(fileID: fileID, line: line)
    let call = IsolatedHandler.callable(throwingObserver: handler)
    let entry = ObserverEntry(
      observer: observer, keyed: true, delivery: delivery, isolation: handler.isolation
    ) { (observer: Observer, payload: Payload) in
      do { try call(observer, payload) } catch { site.report(error) }
    }
    return add(
      entry, .observer(Observer.self), priority: priority, fileID: fileID, line: line,
      endsWithToken: false)
  }

  /// Registers an actor as a weak observer with a throwing handler that runs on the actor; what
  /// it throws goes to ``errors``, and the other handlers still run.
  ///
  /// ```swift
  /// actor Archive {
  ///   func start() {
  ///     Inbox.didReceive.register(self) { archive, message in try archive.store(message) }
  ///   }
  ///   func store(_ message: String) throws {}
  /// }
  /// ```
  ///
  /// Otherwise the same as ``register(_:priority:handler:fileID:line:)-1twd7``. The errors
  /// reach ``errors`` on the actor, as ``subscribe(priority:_:fileID:line:)-6uz27`` describes.
  ///
  /// - Parameters:
  ///   - actor: The actor to run `handler` on, held weakly.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run on the actor for each post; it may throw.
  ///   - fileID: Where the registration was written, for ``HandlerError``; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled; you may ignore it.
  /// - Complexity: Amortised O(1).
  @_disfavoredOverload
  @discardableResult
  public func register<A: Actor>(
    _ actor: A, priority: Int = 0,
    handler: @escaping @Sendable (isolated A, Payload) throws -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let site = throwSite(fileID: fileID, line: line)
    let entry = ObserverEntry(
      observer: actor, keyed: true, delivery: delivery, isolation: actor
    ) { (actor: A, payload: Payload) in
      // The entry runs only on its isolation, `actor`: the check never fails.
      actor.assumeIsolated { actor in
        do { try handler(actor, payload) } catch { site.report(error) }
      }
    }
    return add(
      entry, .actor(A.self), priority: priority, fileID: fileID, line: line,
      endsWithToken: false)
  }
}
