import EventCore

/// A hub that calls every registered observer of a protocol through that protocol.
///
/// Declare a protocol for what happens, let classes adopt it and register, then notify: the
/// closure receives each observer as the protocol type, with no casts and no `userInfo`.
///
/// ```swift
/// protocol Update {
///   func updateTitle(title: String)
/// }
///
/// final class TitleView: Update {
///   var title = ""
///   func updateTitle(title: String) { self.title = title }
/// }
///
/// let view = TitleView()
/// Broadcaster.register(Update.self, observer: view)
/// Broadcaster.notify(Update.self) { $0.updateTitle(title: "new title") }
/// ```
///
/// Use ``shared`` (through the static methods) for app-wide broadcasts, or create your own
/// `Broadcaster()` to keep a feature's or a test's observers apart, or to bound what its slow
/// observers may have waiting (``init(backlog:)``).
///
/// Each protocol is its own channel, identified by the protocol type itself rather than its name:
/// two protocols both called `Update` in different scopes never share observers.
///
/// Observers are held weakly. An observer that is deallocated is never called again and its
/// registration is dropped without an ``unregister(_:observer:)-swift.method``;
/// ``observerCount(_:)-swift.method`` counts it no more. Observers are called by priority (higher
/// first, `register(_:observer:priority:)`), then in the order they registered; registering one
/// again moves it to the end of its priority, and it is still called once per notification.
///
/// ### Where observers are called
/// Each registration says: an observer registered from nonisolated code is called on the thread
/// that notifies, unless its delivery says `.queue(q)` or `.mainActor`
/// (``register(_:observer:delivery:priority:isolation:fileID:line:)-swift.method``); one registered
/// from code isolated to an actor (a `@MainActor` screen registering itself) is called on that
/// actor, even from a background `notify`. A `notify` body isolated to an actor runs there for
/// every observer. `notify` never waits for a queued call. A registration made from nonisolated
/// code shares the observer with every thread that notifies: make it `Sendable`, or register it
/// from its actor. "What runs where" in the Events documentation lists every form of every
/// module.
///
/// ### Threading
/// Every method is thread-safe and may be called from any thread, including from inside a
/// ``notify(_:_:isolation:)-swift.method`` closure. There are no dispatch barriers, no observer
/// code runs while a lock is held, and nothing waits for an observer's call running on another
/// thread: once `unregister` returns no notification starts a new call to the observer, and a
/// call already running elsewhere may finish.
public final class Broadcaster: Sendable {
  /// The broadcaster behind the static methods.
  ///
  /// `Broadcaster.notify(Update.self) { ... }` is `Broadcaster.shared.notify(Update.self) { ... }`.
  /// Like every broadcaster, it may be used from any thread.
  public static let shared = Broadcaster()

  /// One observer list per protocol, keyed by the identity of the protocol type `P`. Every entry
  /// of the list under the key of `P` holds an observer registered as a `P` (see `register`).
  /// Channels are never removed, so each lives as long as the broadcaster.
  let channels = Lock<[ObjectIdentifier: Channel]>([:])
  /// The channels of `channels`, to find without taking its lock.
  let index = ChannelIndex()
  /// Every channel with its protocol, in the order they were created, for the debug
  /// description; appended to under `channels`' lock.
  let protocols = Lock<[(type: any Any.Type, channel: Channel)]>([])
  /// The jobs of `notify` bodies isolated to another actor, which `flush` waits for.
  @usableFromInline let isolatedJobs = IsolatedJobs()
  /// The backlog of every registration that runs later, and the writer of its warnings; each
  /// channel has a flow of its own, part of this one, that names its protocol.
  let flow: FlowControl
  /// The handlers of ``onDrop(_:)``, which every channel's flow posts its reports to.
  let dropHandlers = ObserverList<Drop>()

  /// Creates a broadcaster with no observers, independent of ``shared``, whose registrations
  /// that run later keep at most what `backlog` says waiting.
  ///
  /// ```swift
  /// // A slow screen sees the newest 100 calls, never a queue of stale ones.
  /// let positions = Broadcaster(backlog: .dropOldest(100))
  /// ```
  ///
  /// Its observers are reached only through this instance: notifying ``shared`` does not call
  /// them. The new broadcaster may be shared with and used from any thread.
  ///
  /// A registration that runs later has a backlog: the calls queued for it that have not run
  /// yet. That is a `.queue(q)` or `.mainActor` registration notified from elsewhere, and one
  /// made from code isolated to an actor, notified from off it or while earlier calls wait. A
  /// call that runs inline (a synchronous registration, a main-actor one notified on the main
  /// actor with nothing queued for it) has none, and is never dropped. Each registration has
  /// its own backlog: a slow one never holds or drops another's calls.
  ///
  /// A bounded backlog never blocks a notifier: `notify` returns at once. What it drops is
  /// never called, is reported to ``onDrop(_:)``, and leaves the order of what is called intact
  /// (notify order). The calls of async `notify` bodies are not bounded.
  ///
  /// - Parameter backlog: The most calls each such registration may have waiting, and which
  ///   go when there are more; ``/EventCore/Backlog/unbounded`` by default, whose registrations
  ///   are named on standard error once they pass
  ///   ``/EventCore/EventDiagnostics/backlogWarning``.
  public init(backlog: Backlog = .unbounded) {
    flow = FlowControl(backlog: backlog) { "Broadcaster" }
  }

  /// Registers `observer` to be called by every later ``notify(_:_:isolation:)-swift.method`` of
  /// `protocolType`, on the notifying thread, or on the actor of the code that registers it.
  ///
  /// The same as ``register(_:observer:delivery:priority:isolation:fileID:line:)-swift.method``
  /// with `.synchronous` delivery, which says where the calls run.
  ///
  /// The observer is held weakly: the registration lasts until the observer is deallocated, you
  /// call ``unregister(_:observer:)-swift.method`` or ``unregisterAll(_:)-swift.method``, or you
  /// cancel the returned subscription. You may ignore the subscription; releasing it does not end
  /// the registration.
  ///
  /// ```swift
  /// broadcaster.register(Update.self, observer: view)
  /// let registration = broadcaster.register(Theme.self, observer: view)
  /// registration.cancel()  // ends the `Theme` registration only
  /// ```
  ///
  /// Registering an observer that is already registered for `protocolType` ends its previous
  /// registration (as `cancel()` would) and moves it behind the other registrations of its
  /// priority; it is still called once per notification. One observer may be registered for
  /// several protocols.
  ///
  /// Only class instances can be observers, because only they can be held weakly. Swift cannot
  /// express "a class conforming to `P`" for an arbitrary protocol `P`, so a value-type observer
  /// is refused at run time rather than at compile time: the call stops the program with a
  /// message that names the type, instead of registering something that would never be called.
  /// A value converted to `AnyObject` (`point as AnyObject`) is refused the same way: each
  /// conversion makes a new box. An existential that boxes its value (`any Error`) registers the
  /// object inside the box.
  ///
  /// An observer registered while a notification is in progress is called from the next
  /// notification on.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol, usually written `MyProtocol.self`, that names the channel.
  ///   - observer: A class instance conforming to `protocolType`. Held weakly.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - isolation: The actor the calls run on; by default that of the calling code (`nil`
  ///     from nonisolated code: the notifying thread).
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A subscription whose `cancel()` ends this registration.
  /// - Precondition: `observer` is a class instance.
  @inlinable @discardableResult
  public func register<P>(
    _ protocolType: P.Type, observer: P, priority: Int = 0,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    register(
      protocolType, observer: observer, delivery: .synchronous, priority: priority,
      isolation: isolation, fileID: fileID, line: line)
  }

  /// Registers `observer` to be called by every later ``notify(_:_:isolation:)-swift.method`` of
  /// `protocolType` as `delivery` says: SwiftNotificationCenter's "register with an execution
  /// queue".
  ///
  /// ```swift
  /// // A nonisolated service whose screens must be updated on the main actor:
  /// broadcaster.register(Update.self, observer: titleView, delivery: .mainActor)
  /// // Every call to the cache runs on its queue, in notify order:
  /// broadcaster.register(Update.self, observer: cache, delivery: .queue(cacheQueue))
  /// ```
  ///
  /// Every call to this observer runs as `delivery` says, in notify order: `.synchronous` on the
  /// notifying thread before `notify` returns, `.queue(q)` asynchronously on `q` (in notify
  /// order when `q` is serial), `.mainActor` on the main actor (inline when `notify` runs there
  /// with nothing queued for the observer, otherwise queued there). `notify` never waits for a
  /// queued call. A queued call holds the observer weakly: an observer released before its call
  /// runs is not called, and is not kept alive by the call.
  ///
  /// Isolation wins over delivery, as with `Event`: registered from code isolated to an actor
  /// (a `@MainActor` screen registering itself), the calls run on that actor whatever `delivery`
  /// says. To have `delivery` decide, register from nonisolated code, or pass `isolation: nil`.
  /// The actor is held weakly: a registration whose actor has been deallocated ends.
  ///
  /// Otherwise as ``register(_:observer:priority:isolation:fileID:line:)-swift.method``: held
  /// weakly, one registration per observer and protocol, a value-type observer refused at run time.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol, usually written `MyProtocol.self`, that names the channel.
  ///   - observer: A class instance conforming to `protocolType`. Held weakly.
  ///   - delivery: Where and when the observer's calls run, unless `isolation` is an actor.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - isolation: The actor the calls run on; by default that of the calling code.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A subscription whose `cancel()` ends this registration.
  /// - Precondition: `observer` is a class instance.
  @inlinable @discardableResult
  public func register<P>(
    _ protocolType: P.Type, observer: P, delivery: Delivery, priority: Int = 0,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    // Inlinable, so that what depends on `P` (reading the observer, copying its bytes, the
    // channel's key) is specialized in the caller; the rest is the non-generic `register`
    // below. Unspecialized, each of those steps went through `P`'s metadata.
    // Written from the closure, so that nothing generic returns an optional: unspecialized,
    // a `Subscription?` result looks up `Optional`'s metadata at run time on every call.
    var subscription: Subscription?
    Self.withObject(observer) { address, object in
      subscription = register(
        UnretainedObserver(address, of: object), object: object, of: P.self,
        delivery: delivery, priority: priority, isolation: isolation, fileID: fileID,
        line: line)
    }
    guard let subscription else {
      ObserverObject.valueType(type(of: observer as Any), in: "Broadcaster.register")
    }
    return subscription
  }

  /// Registers `object`, copied as `copy` from the `protocolType` it was registered as.
  ///
  /// - Parameters:
  ///   - copy: The observer's bytes as the `protocolType` it was registered as.
  ///   - object: The observer.
  ///   - protocolType: The protocol that names the channel.
  ///   - delivery: Where and when the observer's calls run, unless `isolation` is an actor.
  ///   - priority: Higher runs first.
  ///   - isolation: The actor the calls run on, if any.
  ///   - fileID: Where the registration was written.
  ///   - line: The line of the registration.
  /// - Returns: A subscription whose `cancel()` ends this registration.
  @usableFromInline func register(
    _ copy: UnretainedObserver, object: AnyObject, of protocolType: any Any.Type,
    delivery: Delivery, priority: Int, isolation: (any Actor)?, fileID: StaticString,
    line: UInt
  ) -> Subscription {
    ObserverObject.refuseBoxedValue(object, in: "Broadcaster.register")
    let (channel, route) = channelAndRoute(
      creating: protocolType, for: copy, delivery: delivery, isolation: isolation)
    // Without a retain (see `notify`): the broadcaster, which the caller holds, keeps it.
    return channel._withUnsafeGuaranteedRef { list in
      let entry = Self.entry(
        for: object, delivery: delivery, isolation: isolation, route: route)
      entry.site = RegistrationSite(.observer(type(of: object)), fileID: fileID, line: line)
      entry.priority = priority
      return list.subscribe(entry, endsWithToken: false)
    }
  }

  /// Ends the registration of `observer` for `protocolType`.
  ///
  /// Its registrations for other protocols stay. Does nothing if `observer` is not registered
  /// for `protocolType` (a value can never be, so passing one does nothing either).
  ///
  /// Safe to call from the observer's own `deinit`, where its weak references are already `nil`:
  ///
  /// ```swift
  /// deinit { Broadcaster.unregister(Update.self, observer: self) }
  /// ```
  ///
  /// Thread-safe, and never waits for a call running on another thread. Once it returns, no
  /// notification that begins afterwards starts a new call to `observer` for `protocolType`.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol the observer was registered for.
  ///   - observer: The registered observer.
  @inlinable
  public func unregister<P>(_ protocolType: P.Type, observer: P) {
    guard let channel = unretainedChannel(for: ObjectIdentifier(P.self)) else { return }
    Self.withObject(observer) { _, object in
      channel._withUnsafeGuaranteedRef { $0.removeObserver(object) }
    }
  }

  /// Ends every registration for `protocolType`.
  ///
  /// Registrations for other protocols stay. Thread-safe, and never waits for a call running on
  /// another thread; once it returns, no notification of `protocolType` that begins afterwards
  /// starts a new call to any of the removed observers.
  ///
  /// - Parameter protocolType: The protocol whose observers to remove.
  public func unregisterAll<P>(_ protocolType: P.Type) {
    existingChannel(for: ObjectIdentifier(P.self))?.removeAll()
  }

  /// Calls `body` once with each live observer of `protocolType`, by priority, then in
  /// registration order, where each registration says.
  ///
  /// ```swift
  /// broadcaster.notify(Update.self) { $0.updateTitle(title: "new title") }
  /// ```
  ///
  /// Where `body` runs:
  /// - A body isolated to an actor (written in `@MainActor` code, or marked
  ///   `{ @MainActor in ... }`) runs on that actor for every observer: inline when `notify` runs
  ///   there, otherwise queued there, one job for the whole notification.
  /// - A nonisolated body runs where each registration says: for a synchronous registration made
  ///   from nonisolated code, on the calling thread before `notify` returns; for any other
  ///   (`.queue(q)`, `.mainActor`, or made from code isolated to an actor), queued where it
  ///   runs, in notify order per observer, or inline when `notify` already runs on its actor with
  ///   nothing queued for it.
  ///
  /// `notify` never waits for a queued call. The observers called are those registered when the
  /// notification started, minus those unregistered, cancelled or deallocated since, including
  /// by an earlier call of `body` in the same notification. A queued call holds its observer
  /// weakly: released before the call runs, the observer is not called and not kept alive.
  /// `body` may register, unregister and notify (the same protocol included); observers
  /// registered meanwhile are called from the next notification on.
  ///
  /// `body` escapes (it may run later, elsewhere) and is `@Sendable`: in Swift 6 mode it cannot
  /// mutate a local variable it captures; record through a lock or an actor instead.
  ///
  /// - Parameters:
  ///   - protocolType: The protocol whose observers to call.
  ///   - body: Called with each observer, typed as `protocolType`.
  ///   - isolation: The actor the caller runs on, by default that of the calling code: where
  ///     `notify` runs inline rather than queued.
  /// - Complexity: O(*n*) for *n* observers. Reaching observers that need no hop allocates
  ///   nothing, once the observers are unchanged since the previous notification of
  ///   `protocolType`; each queued call costs one job. Forming `body` costs one allocation at the
  ///   call site with Swift 6.3, even for a closure that captures nothing: an escaping
  ///   `@isolated(any)` closure carries its isolation in a context of its own.
  @inlinable
  public func notify<P>(
    _ protocolType: P.Type,
    @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    isolation: (any Actor)? = #isolation
  ) {
    // Inlinable so that the client specializes it for its `P`. Each entry is called here, not
    // through its handler: its liveness is checked, its observer loaded strong (the one retain
    // per observer), and the `P` it was registered as lent to `body` while that reference holds
    // it; returning `false` for a dead entry has the list purge it.
    guard let channel = unretainedChannel(for: ObjectIdentifier(P.self)) else { return }
    guard body.isolation == nil else {
      return Self.notifyIsolated(
        channel.takeUnretainedValue(), body, caller: isolation, jobs: isolatedJobs)
    }
    // Safe without a retain: a channel stays in `channels` as long as the broadcaster, which
    // the caller holds for the call. (Retaining it is slow: its entries' weak references to it
    // give it a side table, which moves its reference counting off the fast path.)
    channel._withUnsafeGuaranteedRef { channel in
      Self.notify(channel, body, caller: isolation)
    }
  }

  /// Calls `body`, nonisolated, with each live observer of `channel`, registered as a `P`:
  /// inline for synchronous nonisolated registrations, through its route for the others.
  @inlinable
  static func notify<P>(
    _ channel: Channel, _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    caller: (any Actor)?
  ) {
    // Callable anywhere: `body` is nonisolated.
    let call = IsolatedHandler.callable(sendable: body)
    var context = NotifyContext()
    channel.forEachEntry { entry in
      notify(entry, body, call, caller: caller, &context)
    }
  }

  /// One observer of ``notify(_:_:caller:)``: called inline if its registration is synchronous
  /// and nonisolated, through its route otherwise.
  ///
  /// - Returns: `false` when the registration is dead.
  @inlinable @inline(__always)
  static func notify<P>(
    _ entry: ObserverEntry<Never>, _ body: @escaping @isolated(any) @Sendable (P) -> Void,
    _ call: @Sendable (P) -> Void, caller: (any Actor)?, _ context: inout NotifyContext
  ) -> Bool {
    guard entry.liveness.isLive else { return false }
    // Safe: every entry of the channel of `P` carries the observer registered as a `P`, and
    // the entry, which the list's snapshot holds, keeps it alive without a retain here.
    let attachment = entry.unretainedAttachment.unsafelyUnwrapped
    let isInline = attachment._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: ObserverRoute.self).isInline
    }
    guard isInline else { return route(entry, body, caller: caller, &context) }
    guard let alive = entry.observer else { return false }
    attachment._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: ObserverRoute.self).observer.withObserver(alive, as: P.self, call)
    }
    return true
  }

  /// The number of live observers registered for `protocolType`.
  ///
  /// Deallocated observers are not counted; their registrations are dropped as they are found.
  /// Thread-safe.
  ///
  /// - Parameter protocolType: The protocol whose observers to count.
  /// - Returns: How many observers a notification started now would call.
  /// - Complexity: O(*n*) for *n* registrations.
  public func observerCount<P>(_ protocolType: P.Type) -> Int {
    existingChannel(for: ObjectIdentifier(P.self))?.count ?? 0
  }
}

/// The registrations of one protocol.
///
/// `notify` calls each observer itself, so the entries' handlers never run and their payload
/// type is `Never`: no post can be made through the list. The list is not generic over the
/// protocol, so its code is specialized once, in this module, for every protocol.
@usableFromInline typealias Channel = ObserverList<Never>

extension Broadcaster {
  /// The channel of `protocolType`, created on first use.
  ///
  /// Keyed by the identity of `protocolType` (for a protocol, its existential type), never by its
  /// name, so distinct protocols that share a name get distinct channels.
  private func channel(for protocolType: any Any.Type) -> Channel {
    let key = ObjectIdentifier(protocolType)
    return channels.withLock { channels in
      if let existing = channels[key] { return existing }
      let own = FlowControl(partOf: flow) { "Broadcaster protocol \(protocolType)" }
      // The list, not the broadcaster: the channel's flow must not keep it alive.
      own.deliverDrops { [dropHandlers] drop in dropHandlers.post(drop) > 0 }
      let created = Channel(flow: own)
      created.nameChannel { "Broadcaster protocol \(protocolType)" }
      channels[key] = created
      index.insert(created, for: key, all: channels)
      protocols.withLock { $0.append((protocolType, created)) }
      return created
    }
  }

  /// ``channel(for:)`` without a retain, and without the lock once the channel exists (valid
  /// while the broadcaster lives, as channels are never removed), and the route of a
  /// registration of `observer` as `delivery` and `isolation` say.
  ///
  /// A synchronous, nonisolated registration of a `protocolType` that ``ClassReference`` reads
  /// (a class or a class-bound existential) takes the channel's shared route for its observer's
  /// type (see ``ObserverRoute``): the one the channel's last such registration took, found
  /// without a lock, or another kept one; every other registration gets a route of its own.
  private func channelAndRoute(
    creating protocolType: any Any.Type, for observer: UnretainedObserver, delivery: Delivery,
    isolation: (any Actor)?
  ) -> (Unmanaged<Channel>, ObserverRoute) {
    let key = ObjectIdentifier(protocolType)
    let found = index.channelAndRoute(for: key)
    let channel = found?.channel ?? .passUnretained(self.channel(for: protocolType))
    // Every channel has a flow (see `channel(for:)`).
    let flow = channel._withUnsafeGuaranteedRef { $0.flow.unsafelyUnwrapped }
    var shares = isolation == nil && observer.size != 0 && observer.spilled == nil
    if case .synchronous = delivery.kind {} else { shares = false }
    guard shares && ClassReference.leads(protocolType) else {
      return (
        channel,
        ObserverRoute(observer, delivery: delivery, isolation: isolation, flow: flow)
      )
    }
    if let last = found?.route,
      last._withUnsafeGuaranteedRef({ $0.observer.hasSameType(as: observer) })
    {
      return (channel, last.takeUnretainedValue())
    }
    let shared = index.sharedRoute(for: key, matching: observer) {
      ObserverRoute(observer, delivery: delivery, isolation: nil, flow: flow, shared: true)
    }
    return (
      channel,
      shared ?? ObserverRoute(observer, delivery: delivery, isolation: nil, flow: flow)
    )
  }

  /// The channel of the type whose identity is `key`, if anything was ever registered for it:
  /// notifying, counting and unregistering create no channel.
  func existingChannel(for key: ObjectIdentifier) -> Channel? {
    unretainedChannel(for: key)?.takeUnretainedValue()
  }

  /// ``existingChannel(for:)`` without a retain and without the lock, valid while the
  /// broadcaster lives: channels are never removed.
  @usableFromInline func unretainedChannel(for key: ObjectIdentifier) -> Unmanaged<Channel>? {
    index.channel(for: key)
  }

  /// Calls `body` with the observer as an object, unless it is a value, which converting to
  /// `AnyObject` would box into a fresh object that dies at once.
  ///
  /// A class or a class-bound existential is read in place (``ClassReference``) and lent to
  /// `body` without a retain, which `observer` makes needless: the object's side table (weak
  /// references to it) takes every retain and release off the runtime's fast path. Any other
  /// `P` is cast, and `body` gets the cast's reference.
  ///
  /// `body` also gets the observer's address, for copying its bytes without a retain. One
  /// `withUnsafePointer` serves both: unspecialized, each generic layer is a call of its own.
  ///
  /// `body` returns nothing, and this a `Bool`: the code runs unspecialized (generic over `P`),
  /// where a generic or optional result would look up its type's metadata at run time.
  ///
  /// - Returns: Whether `observer` is an object, and `body` ran; `false` for a value.
  @inlinable @discardableResult
  static func withObject<P>(_ observer: P, _ body: (UnsafePointer<P>, AnyObject) -> Void) -> Bool {
    withUnsafePointer(to: observer) { address in
      if ClassReference.leads(P.self) {
        ClassReference.object(at: address)._withUnsafeGuaranteedRef { body(address, $0) }
        return true
      }
      guard let object = castObject(observer) else { return false }
      body(address, object)
      return true
    }
  }

  /// The observer as an object through `Any` and a conditional cast, for any `P`, or `nil` for
  /// a value: an existential that boxes its value (`any Error`) converts to `AnyObject` as a new
  /// box, which would register dead, but opened as `Any` it casts to the object inside.
  @usableFromInline static func castObject<P>(_ observer: P) -> AnyObject? {
    guard type(of: observer as Any) is AnyClass else { return nil }
    return dynamicCast(observer as Any, to: AnyObject.self)
  }

  /// A registration that holds `object` weakly, one per observer, and carries `route`, with the
  /// observer as the `P` it was registered as, for `notify` to hand over.
  ///
  /// The entry gets the registration's delivery and isolation, so that the list's counts and
  /// purges load an observer isolated to an actor only where the list allows (guarantee 12).
  private static func entry(
    for object: AnyObject, delivery: Delivery, isolation: (any Actor)?, route: ObserverRoute
  ) -> ObserverEntry<Never> {
    ObserverEntry<Never>(
      observer: object, keyed: true, delivery: delivery, isolation: isolation,
      attachment: route)
  }
}
