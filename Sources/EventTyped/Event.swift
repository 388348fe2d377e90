import EventCore

/// A typed event that delivers a payload to weakly held observers, by priority, then in
/// registration order.
///
/// Declare one event per thing that happens, usually as a `static let` of the type that posts
/// it. The payload's type is part of the event's type, so every handler is checked at compile
/// time:
///
/// ```swift
/// final class Downloads {
///   static let didFinish = Event<(String, Int)>()
///
///   func finish(_ name: String, bytes: Int) {
///     Downloads.didFinish.post(name, bytes)
///   }
/// }
///
/// @MainActor final class DownloadsScreen {
///   init() {
///     Downloads.didFinish.register(self, function: DownloadsScreen.show)
///   }
///
///   func show(_ name: String, _ bytes: Int) {
///     print("\(name): \(bytes) bytes")
///   }
/// }
/// ```
///
/// Observers are held weakly: an observer that is deallocated is never called again and its
/// registration is purged without a call to ``unregister(_:)-(Observer)``. Each observer (and
/// each type) has at most one registration; registering it again replaces the handler (which
/// then receives nothing more, not even a call already queued) and moves it behind the other
/// registrations of its priority.
///
/// Releasing the event ends its registrations: their tokens read
/// ``/EventCore/Subscription/isCancelled``, and their handlers, with what they captured, are
/// released. Unlike Combine, where a subscription you hold keeps its subscriber attached, a token
/// does not keep the event alive: keep the event itself for as long as it should deliver,
/// usually as a `static let` or a property of the object that posts it.
///
/// ### Threading
/// This section holds for every registration form; each form's own documentation says only
/// where it differs. Every member is thread-safe, and no handler runs under a lock, so a handler
/// may register, unregister or post, on this event too; a registration made during a post gets
/// the next post.
///
/// Handlers written in nonisolated code run as the event's ``/EventCore/Delivery`` says:
/// `.synchronous` (the default) on the posting thread before `post` returns (with one exception
/// for replaying events, in ``Replay``), `.queue(q)` asynchronously on `q`, `.mainActor` on the
/// main actor. A handler written in code isolated to an actor runs on that actor and the
/// delivery does not apply: in a `@MainActor` class, closures and the class's own methods
/// registered from it run on the main actor whichever thread posts, inline when the post is
/// made there with nothing queued for them, otherwise scheduled there in post order.
///
/// A registration made from nonisolated code runs on every thread that posts, so Swift 6 checks
/// it: its observer must be `Sendable` (a `@MainActor` class is) and its closure `@Sendable`, and
/// a `@MainActor` method does not compile there unless the caller runs on the main actor. An
/// actor observes with ``register(_:priority:handler:fileID:line:)-1twd7``.
///
/// The Events documentation has the rest: "What runs where" lists every form of every module
/// with the thread or actor its handler runs on, and "What compiles where" what Swift 6 rejects
/// and what it cannot check.
public final class Event<Payload: Sendable>: Sendable {
  /// Where every handler of this event runs.
  public let delivery: Delivery

  /// What the event keeps of its posts for registrations made later.
  public let replay: Replay

  /// What a post made by one of its synchronous handlers, during a post on the same thread,
  /// does: delivered at once (``Reentrancy/immediate``) or after the post in progress
  /// (``Reentrancy/queued``).
  public let reentrancy: Reentrancy

  @usableFromInline let list: ObserverList<Payload>

  /// One stand-in object per registered type, so that a type-level registration is a keyed entry
  /// of `list` (replaced atomically on re-registration) and lives as long as this event.
  private let lazyTypeKeys = LazyLock<[ObjectIdentifier: TypeKey]>()
  private var typeKeys: Lock<[ObjectIdentifier: TypeKey]> { lazyTypeKeys.lock { [:] } }

  /// The live ``values`` streams and async handlers, finished when the event is deallocated.
  let lazyStreams = LazyLock<StreamRegistry>()
  var streams: Lock<StreamRegistry> { lazyStreams.lock { StreamRegistry() } }

  /// The ``errors`` channel, once read, shared with the throwing registrations (and, for a
  /// keyed event's key, with the keyed event and its other keys).
  @usableFromInline let errorChannel: Lock<ErrorChannel>

  /// Creates an event with no observers.
  ///
  /// ```swift
  /// static let didLogin = Event<User>(replay: .latest)  // late screens read the current user
  /// ```
  ///
  /// With a replay, every new registration first receives what the event retains, then every
  /// later post, each payload exactly once; ``Replay`` says how, and the one exception this
  /// makes to "before `post` returns".
  ///
  /// - Parameters:
  ///   - delivery: Where handlers written in nonisolated code run: `.synchronous` (the default)
  ///     on the posting thread, `.queue(q)` on `q`, `.mainActor` on the main actor.
  ///   - replay: What the event keeps for registrations made later: ``Replay/none`` (the
  ///     default), ``Replay/latest``, ``Replay/last(_:)`` or ``Replay/untilObserved``.
  ///   - reentrancy: What a post made by a synchronous handler of this event, during a post on
  ///     the same thread, does: ``Reentrancy/immediate`` (the default) delivers it at once,
  ///     depth-first; ``Reentrancy/queued`` after the post in progress has reached every
  ///     observer, breadth-first.
  ///   - backlog: How many calls each registration that runs later may have waiting:
  ///     ``/EventCore/Backlog/unbounded`` (the default), ``/EventCore/Backlog/dropOldest(_:)`` or
  ///     ``/EventCore/Backlog/dropNewest(_:)``. What a bounded backlog drops is reported to ``drops``.
  public init(
    delivery: Delivery = .synchronous, replay: Replay = .none,
    reentrancy: Reentrancy = .immediate, backlog: Backlog = .unbounded
  ) {
    self.delivery = delivery
    self.replay = replay
    self.reentrancy = reentrancy
    self.list = ObserverList(
      retention: replay.policy, flow: FlowControl(backlog: backlog) { "Event<\(Payload.self)>" })
    self.errorChannel = Lock(ErrorChannel())
  }

  /// Creates the event of one key of a ``KeyedEvent``: no replay, immediate reentrancy (the keyed
  /// event queues nested posts across its keys), the keyed event's error channel, and a hook
  /// called when its last registration ends.
  // Inlinable so that a key's event and list are made at the payload's type: unspecialized,
  // making them looks up the generic metadata of the list and its state at every step.
  @inlinable
  init(
    delivery: Delivery, errorChannel: Lock<ErrorChannel>, flow: FlowControl,
    whenEmpty: @escaping @Sendable () -> Void
  ) {
    self.delivery = delivery
    self.replay = .none
    self.reentrancy = .immediate
    self.list = ObserverList(retention: .none, whenEmpty: whenEmpty, flow: flow)
    self.errorChannel = errorChannel
  }

  deinit {
    finishStreams()
  }

  /// Registers an unbound method of `observer`, whose parameters are the payload's elements.
  ///
  /// `Event<Void>` takes a method `() -> Void`, `Event<String>` a method `(String) -> Void`, and
  /// `Event<(String, Int)>` a method `(String, Int) -> Void`:
  ///
  /// ```swift
  /// Downloads.didFinish.register(self, function: DownloadsScreen.show)
  /// ```
  ///
  /// The observer is held weakly and called only while it lives. It has one registration per
  /// event, shared by every `register` form: registering it again replaces this one.
  ///
  /// What differs in this form is isolation. Swift drops a method's isolation when it converts
  /// the unbound method, so the method runs on `isolation`, by default the actor of the code
  /// that registers, and as the delivery says when that is `nil`. A `@MainActor` method selects
  /// ``register(_:priority:function:fileID:line:)-(Observer,_,_,_,_)`` instead, which does not
  /// compile off the main actor. Another global actor's method loses its isolation without a
  /// diagnostic: register it from its actor's code, or with a closure
  /// (``register(_:priority:handler:fileID:line:)-9g6t2``), which keeps its own. An actor's own
  /// method does not convert: use ``register(_:priority:handler:fileID:line:)-1twd7``.
  ///
  /// Written at the call site (`Screen.show`), the method allocates nothing per delivery: this
  /// call is always inlined into yours. A method passed in as a function value, through a
  /// helper of your own, allocates a closure per delivery (the Events documentation's
  /// Performance article says why); the closure form never does.
  ///
  /// - Parameters:
  ///   - observer: The object to call, held weakly; `Sendable`.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - function: The unbound method, such as `Service.handle`.
  ///   - isolation: The actor the method runs on: the caller's (`#isolation`) unless you pass
  ///     another; `nil` lets the delivery decide. An explicit value is trusted: it names where
  ///     the method may run.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled. The registration lasts as
  ///   long as the observer, so you may ignore the token; releasing it does not cancel.
  /// - Complexity: Amortised O(1).
  /// - Precondition: `observer` is a class instance, not a value converted to `AnyObject`
  ///   (which would be a new box on every conversion, dead at once).
  @inlinable @inline(__always)
  @discardableResult
  public func register<Observer: AnyObject & Sendable, each Element>(
    _ observer: Observer, priority: Int = 0,
    function: @escaping (Observer) -> (repeat each Element) -> Void,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    ObserverObject.refuseBoxedValue(observer, in: "Event.register")
    let entry = ObserverEntry(
      observer: observer, keyed: true, delivery: delivery, isolation: isolation
    ) { (observer: Observer, payload: Payload) in
      function(observer)(repeat each payload)
    }
    return add(
      entry, .observer(Observer.self), priority: priority, fileID: fileID, line: line,
      endsWithToken: false)
  }

  /// Registers an unbound method named through `Self` (`register(self, function: Self.show)`),
  /// the spelling a class body reaches for; the same as
  /// ``register(_:priority:function:isolation:fileID:line:)-(Observer,_,_,_,_,_)``.
  ///
  /// Inside a class, `self` has the class's type while `Self.show` takes `Self`, and Swift
  /// cannot unify the two for one generic parameter, so this form takes the observer's type
  /// from the method alone.
  ///
  /// - Parameters:
  ///   - observer: The object to call, held weakly; it must be an instance of the type that
  ///     declares `function` (checked once, at registration).
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - function: The unbound method, such as `Self.show`.
  ///   - isolation: The actor the method runs on: the caller's (`#isolation`) unless you pass
  ///     another; `nil` lets the delivery decide.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled; you may ignore it.
  @_disfavoredOverload
  @discardableResult
  public func register<Object: AnyObject & Sendable, Observer: AnyObject & Sendable, each Element>(
    _ observer: Object, priority: Int = 0,
    function: @escaping (Observer) -> (repeat each Element) -> Void,
    isolation: (any Actor)? = #isolation, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    guard let typed = observer as? Observer else {
      fatalError(
        "Event.register(_:function:): \(Object.self) is not a \(Observer.self), whose method "
          + "`function` is")
    }
    return register(
      typed, priority: priority, function: function, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Registers a closure that receives `observer` and the payload.
  ///
  /// The observer is held weakly and handed to `handler` while it lives, so the closure needs no
  /// `[weak self]`:
  ///
  /// ```swift
  /// Downloads.didFinish.register(self) { screen, download in
  ///   screen.show(download.0, download.1)
  /// }
  /// ```
  ///
  /// The closure runs on the actor it was written on, if any, and otherwise as the delivery
  /// says (see ``Event``). An actor registers itself with
  /// ``register(_:priority:handler:fileID:line:)-1twd7`` instead, which runs the handler on it.
  ///
  /// This form also serves labelled tuple payloads such as `Event<(name: String, count: Int)>`,
  /// which `function:` cannot. It shares the observer's one registration per event with the
  /// other `register` forms: registering it again replaces this one.
  ///
  /// - Parameters:
  ///   - observer: The object to hand to `handler`, held weakly; `Sendable`.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run for each post, with the observer and the payload.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled. The registration lasts as
  ///   long as the observer, so you may ignore the token; releasing it does not cancel.
  /// - Complexity: Amortised O(1).
  /// - Precondition: `observer` is a class instance, not a value converted to `AnyObject`
  ///   (which would be a new box on every conversion, dead at once).
  @inlinable
  @discardableResult
  public func register<Observer: AnyObject & Sendable>(
    _ observer: Observer, priority: Int = 0,
    @_inheritActorContext handler: @escaping @isolated(any) @Sendable (Observer, Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    ObserverObject.refuseBoxedValue(observer, in: "Event.register")
    let entry = ObserverEntry(
      observer: observer, keyed: true, delivery: delivery, isolatedHandler: handler)
    return add(
      entry, .observer(Observer.self), priority: priority, fileID: fileID, line: line,
      endsWithToken: false)
  }

  /// Registers a type-level (static) function for `type`, whose parameters are the payload's
  /// elements.
  ///
  /// ```swift
  /// Downloads.didFinish.register(Analytics.self, function: Analytics.logDownload)
  /// ```
  ///
  /// A type has one registration per event: registering it again replaces the previous
  /// function. Unlike an instance method's, a static function keeps its own isolation (a
  /// static method of a `@MainActor` type runs on the main actor); a nonisolated one runs as the
  /// delivery says, so it is `@Sendable`. (In Swift 5 mode a static method reference is not
  /// inferred `@Sendable`, and Swift 5 warns "converting non-Sendable function value ... may
  /// introduce data races": mark the method `@Sendable`.) Types are never deallocated, so the
  /// registration lasts until you call ``unregister(_:)-(T.Type)``, ``unregisterAll()`` or cancel
  /// the returned token.
  ///
  /// - Parameters:
  ///   - type: The type the function belongs to; it identifies the registration.
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - function: The function to call with the payload's elements; `@Sendable`.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that ends the registration when cancelled. You may ignore it: releasing
  ///   it does not cancel.
  /// - Complexity: Amortised O(1).
  @discardableResult
  public func register<T, each Element>(
    _ type: T.Type, priority: Int = 0,
    @_inheritActorContext function:
      @escaping @isolated(any) @Sendable (repeat each Element)
      -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription where Payload == (repeat each Element) {
    let key = typeKey(for: type)
    let call = IsolatedHandler.callable(function)
    let entry = ObserverEntry(
      observer: key, keyed: true, delivery: delivery, isolation: function.isolation
    ) { (_: TypeKey, payload: Payload) in call(repeat each payload) }
    return add(
      entry, .type(T.self), priority: priority, fileID: fileID, line: line, endsWithToken: false)
  }

  /// Registers a closure for as long as the returned token lives.
  ///
  /// ```swift
  /// Downloads.didFinish.subscribe { name, bytes in print(name, bytes) }
  ///   .store(in: &subscriptions)
  /// ```
  ///
  /// Each call adds a registration, delivered after those of its priority made before it. The
  /// handler runs on the actor it was written on, if any, and otherwise as the delivery says.
  ///
  /// - Parameters:
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run for each post.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token that keeps the registration alive: cancel or release it to end it.
  /// - Complexity: Amortised O(1).
  @inlinable
  public func subscribe(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let entry = ObserverEntry(delivery: delivery, isolatedHandler: handler)
    return add(entry, .closure, priority: priority, fileID: fileID, line: line, endsWithToken: true)
  }

  /// Registers a closure for the next post only; the registration then ends by itself.
  ///
  /// ```swift
  /// Session.didLogin.subscribeOnce { user in print("first login:", user) }
  /// ```
  ///
  /// It runs exactly once, even when many threads post at once, and a post made inside the
  /// handler does not run it again: the registration ends (its token reads `isCancelled`, and
  /// ``observerCount`` drops) just before the handler runs. Unlike
  /// ``subscribe(priority:_:fileID:line:)-9ws6a``, releasing the token does not end it, so you may
  /// drop the token; cancel it to call the handler off before a post arrives. With a replay, it
  /// runs with the first payload it receives: the oldest retained.
  ///
  /// - Parameters:
  ///   - priority: Higher runs first, equal priorities in registration order; 0 by default.
  ///   - handler: The closure to run for the next post.
  ///   - fileID: Where the registration was written, for diagnostics; leave the default.
  ///   - line: The line of the registration; leave the default.
  /// - Returns: A token whose `cancel()` keeps the handler from running, if it has not yet.
  /// - Complexity: Amortised O(1).
  @discardableResult
  public func subscribeOnce(
    priority: Int = 0,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    let entry = ObserverEntry(delivery: delivery, isolatedHandler: handler)
    entry.runOnce()
    return add(entry, .once, priority: priority, fileID: fileID, line: line, endsWithToken: false)
  }

  /// Ends the registration of `observer`, if it has one.
  ///
  /// After it returns, no call of the observer's handler starts, not even one already queued;
  /// one already running on another thread may finish, since `unregister` never waits for it.
  ///
  /// Generic rather than taking `AnyObject`, so that `unregister(SomeClass.self)` picks
  /// ``unregister(_:)-(T.Type)`` on Apple platforms too, where a class metatype also converts to
  /// `AnyObject`. An `AnyObject` value is accepted as it is.
  ///
  /// - Parameter observer: An object registered with
  ///   ``register(_:priority:function:isolation:fileID:line:)-(Observer,_,_,_,_,_)``,
  ///   ``register(_:priority:handler:fileID:line:)-9g6t2`` or another `register` form.
  public func unregister<Observer: AnyObject>(_ observer: Observer) {
    list.removeObserver(observer)
  }

  /// Ends the type-level registration of `type`, if it has one.
  ///
  /// After it returns, no call of the type's function starts; as for an observer, one already
  /// running on another thread may finish.
  ///
  /// - Parameter type: A type registered with
  ///   ``register(_:priority:function:fileID:line:)-(T.Type,_,_,_,_)``.
  public func unregister<T>(_ type: T.Type) {
    let key = lazyTypeKeys.existing?.withLock { $0[ObjectIdentifier(type)] }
    if let key { list.removeObserver(key) }
  }

  /// Ends every registration: observers, types, subscriptions, ``values`` streams, which
  /// finish, and waiting `next` calls, which throw `CancellationError`.
  ///
  /// Tokens of subscriptions ended this way report `isCancelled`. Called from a handler, the rest
  /// of the post in progress reaches nobody.
  public func unregisterAll() {
    list.removeAll()
    finishStreams()
  }

  /// Delivers `payload` to every live registration, by priority (higher first), then in
  /// registration order.
  ///
  /// ```swift
  /// Downloads.didFinish.post(("report.pdf", 1024))
  /// ```
  ///
  /// `post` runs the handlers that run on the posting thread before it returns and waits for no
  /// other (see ``Event`` for which those are). The post reaches the registrations present when
  /// it starts, minus those that end meanwhile. Made by a synchronous handler of this event
  /// during a post on the same thread, it is delivered as ``reentrancy`` says.
  ///
  /// - Parameter payload: The value handed to every handler.
  /// - Returns: The number of registrations the post reached (called, or queued where their
  ///   delivery or isolation says); 0 means nobody was listening. A post that an
  ///   ``Replay/untilObserved`` event holds for a later registration returns 0.
  /// - Complexity: O(*n*) in the number of registrations.
  @inlinable @discardableResult
  public func post(_ payload: Payload) -> Int {
    if reentrancy.queues { return postQueued(payload) }
    return deliver(payload)
  }

  /// Delivers `payload` to every live registration now, as its delivery says: the post itself,
  /// whatever the reentrancy.
  ///
  /// - Returns: The number of registrations reached.
  @inlinable @discardableResult
  func deliver(_ payload: Payload) -> Int {
    list.retains ? list.postRetaining(payload) : list.post(payload)
  }

  /// Delivers the payload's elements, given one by one: `post()` for `Event<Void>`,
  /// `post("a", 3)` for `Event<(String, Int)>`.
  ///
  /// The same as ``post(_:)-(Payload)`` with the elements made into a tuple. Labelled tuple
  /// payloads are posted as a tuple: `post((name: "a", count: 1))`.
  ///
  /// - Parameter element: The payload's elements, in order.
  /// - Returns: The number of registrations the post reached, as ``post(_:)-(Payload)`` says.
  /// - Complexity: O(*n*) in the number of registrations.
  @discardableResult
  public func post<each Element>(_ element: repeat each Element) -> Int
  where Payload == (repeat each Element) {
    post((repeat each element))
  }

  /// The newest payload the event retains for late registrations, or `nil` if none.
  ///
  /// With ``Replay/latest`` or ``Replay/last(_:)``, the newest post (until ``clearReplay()``);
  /// with ``Replay/untilObserved``, the newest post held for the next registration, and `nil`
  /// once they have been handed over; with ``Replay/none``, always `nil`.
  public var latest: Payload? {
    list.latestRetained
  }

  /// Drops every payload the event retains or holds; later registrations receive only later
  /// posts.
  public func clearReplay() {
    list.clearRetained()
  }

  /// The number of live registrations: observers, types, subscriptions and ``values`` streams.
  ///
  /// Registrations whose observer was deallocated are purged, not counted.
  ///
  /// A registration made from code isolated to an actor has its observer and owners checked
  /// only on that actor, so that no `deinit` of theirs ever runs on the counting thread: read
  /// elsewhere, the count may still include one whose observer has died, until its actor learns
  /// of it (its next delivery; on the main actor, also a count read there).
  ///
  /// - Complexity: O(*n*) in the number of registrations.
  public var observerCount: Int {
    list.count
  }

  /// Registers `entry`, made by a public form, with where it was written and its priority, and
  /// delivers the replay to it.
  @inlinable
  func add(
    _ entry: ObserverEntry<Payload>, _ kind: RegistrationSite.Kind, priority: Int,
    fileID: StaticString, line: UInt, endsWithToken: Bool
  ) -> Subscription {
    entry.site = RegistrationSite(kind, fileID: fileID, line: line)
    entry.priority = priority
    return list.subscribeReplaying(entry, endsWithToken: endsWithToken)
  }

  private func typeKey<T>(for type: T.Type) -> TypeKey {
    // `ObjectIdentifier(type)`, not the metatype boxed as `AnyObject`: on Linux that box is a
    // new object on every conversion.
    typeKeys.withLock { keys in
      if let key = keys[ObjectIdentifier(type)] { return key }
      let key = TypeKey()
      keys[ObjectIdentifier(type)] = key
      return key
    }
  }
}

/// The object that stands for a registered type in an event's observer list.
///
/// The event keeps it for its whole life, so the weakly held entry stays live until it is
/// unregistered; its identity is the entry's key.
final class TypeKey: Sendable {}
