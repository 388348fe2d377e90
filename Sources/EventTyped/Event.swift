import EventCore

/// A typed event that delivers a payload to weakly held observers, in registration order.
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
/// final class DownloadsScreen {
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
/// each type) has at most one registration; registering it again replaces the handler and moves
/// it to the end of the delivery order.
///
/// ### Threading
/// Every member is thread-safe. Handlers run as the event's ``/EventCore/Delivery`` says:
/// `.synchronous` (the default) on the posting thread before `post` returns, `.queue(q)`
/// asynchronously on `q`, `.mainActor` on the main actor. No handler runs under a lock, so a
/// handler may register, unregister or post, on this event too.
///
/// A method of a `@MainActor` class registered with `function:` compiles in Swift 6 with its
/// isolation dropped: it runs on the posting thread unless the event's delivery is
/// `.mainActor`. Give such events `Event(delivery: .mainActor)`.
public final class Event<Payload: Sendable>: Sendable {
  /// Where every handler of this event runs.
  public let delivery: Delivery

  @usableFromInline let list = ObserverList<Payload>()

  /// One stand-in object per registered type, so that a type-level registration is a keyed entry
  /// of `list` (replaced atomically on re-registration) and lives as long as this event.
  private let typeKeys = Lock<[ObjectIdentifier: TypeKey]>([:])

  /// The continuations of the live ``values`` streams, finished when the event is deallocated.
  let streams = Lock(StreamRegistry<Payload>())

  /// Creates an event with no observers.
  ///
  /// - Parameter delivery: Where the handlers run: `.synchronous` (the default) on the posting
  ///   thread, `.queue(q)` on `q`, `.mainActor` on the main actor.
  public init(delivery: Delivery = .synchronous) {
    self.delivery = delivery
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
  /// The observer is held weakly, and the method is called on it only while it lives. An
  /// observer has one registration per event: registering it again, with this method or
  /// ``register(_:handler:)``, replaces the previous handler (which then receives nothing more,
  /// not even a delivery already queued) and moves the observer to the end of the order.
  ///
  /// A method of a `@MainActor` class compiles here with its isolation dropped: it runs on the
  /// posting thread unless the event's delivery is `.mainActor`.
  ///
  /// Calling an unbound method first binds it to the observer, which creates a closure. In an
  /// optimized build the compiler usually sees through that and calls the method directly, so a
  /// post allocates nothing; where it does not inline the call, each delivery allocates that
  /// small closure. ``register(_:handler:)`` never does.
  ///
  /// Thread-safe; a handler may call it during a post, and the new registration gets the next
  /// post.
  ///
  /// - Parameters:
  ///   - observer: The object to call, held weakly.
  ///   - function: The unbound method, such as `Screen.show`.
  /// - Returns: A token that ends the registration when cancelled. The registration lasts as
  ///   long as the observer, so you may ignore the token; releasing it does not cancel.
  /// - Complexity: Amortised O(1).
  @inlinable @inline(__always)
  @discardableResult
  public func register<Observer: AnyObject, each Element>(
    _ observer: Observer, function: @escaping (Observer) -> (repeat each Element) -> Void
  ) -> Subscription where Payload == (repeat each Element) {
    register(observer) { observer, payload in function(observer)(repeat each payload) }
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
  /// This form also serves labelled tuple payloads such as `Event<(name: String, count: Int)>`,
  /// which `function:` cannot. An observer has one registration per event: registering it again
  /// replaces the previous handler and moves the observer to the end of the order.
  ///
  /// Thread-safe; a handler may call it during a post, and the new registration gets the next
  /// post.
  ///
  /// - Parameters:
  ///   - observer: The object to hand to `handler`, held weakly.
  ///   - handler: The closure to run for each post, with the observer and the payload.
  /// - Returns: A token that ends the registration when cancelled. The registration lasts as
  ///   long as the observer, so you may ignore the token; releasing it does not cancel.
  /// - Complexity: Amortised O(1).
  @discardableResult
  public func register<Observer: AnyObject>(
    _ observer: Observer, handler: @escaping (Observer, Payload) -> Void
  ) -> Subscription {
    let entry = ObserverEntry(observer: observer, keyed: true, delivery: delivery, handler: handler)
    return list.subscribe(entry, endsWithToken: false)
  }

  /// Registers a type-level (static) function for `type`, whose parameters are the payload's
  /// elements.
  ///
  /// ```swift
  /// Downloads.didFinish.register(Analytics.self, function: Analytics.logDownload)
  /// ```
  ///
  /// A type has one registration per event: registering it again replaces the previous function
  /// and moves it to the end of the order. Types are never deallocated, so the registration lasts
  /// until you call ``unregister(_:)-(T.Type)``, ``unregisterAll()`` or cancel the returned token.
  ///
  /// Thread-safe; a handler may call it during a post, and the new registration gets the next
  /// post.
  ///
  /// - Parameters:
  ///   - type: The type the function belongs to; it identifies the registration.
  ///   - function: The function to call with the payload's elements.
  /// - Returns: A token that ends the registration when cancelled. You may ignore it: releasing
  ///   it does not cancel.
  /// - Complexity: Amortised O(1).
  @discardableResult
  public func register<T, each Element>(
    _ type: T.Type, function: @escaping (repeat each Element) -> Void
  ) -> Subscription where Payload == (repeat each Element) {
    let key = typeKey(for: type)
    let entry = ObserverEntry(observer: key, keyed: true, delivery: delivery) {
      (_: TypeKey, payload: Payload) in function(repeat each payload)
    }
    return list.subscribe(entry, endsWithToken: false)
  }

  /// Registers a closure for as long as the returned token lives.
  ///
  /// ```swift
  /// Downloads.didFinish.subscribe { name, bytes in print(name, bytes) }
  ///   .store(in: &subscriptions)
  /// ```
  ///
  /// Each call adds a registration, delivered after those made before it. Thread-safe; a handler
  /// may call it during a post, and the new registration gets the next post.
  ///
  /// - Parameter handler: The closure to run for each post.
  /// - Returns: A token that keeps the registration alive: cancel or release it to end it.
  /// - Complexity: Amortised O(1).
  public func subscribe(_ handler: @escaping @Sendable (Payload) -> Void) -> Subscription {
    list.subscribe(ObserverEntry(delivery: delivery, handler: handler), endsWithToken: true)
  }

  /// Ends the registration of `observer`, if it has one.
  ///
  /// After it returns, the observer's handler is not invoked again, even for a post in progress
  /// on another thread or a delivery already queued. Thread-safe, and safe from a handler.
  ///
  /// Generic rather than taking `AnyObject`, so that `unregister(SomeClass.self)` picks
  /// ``unregister(_:)-(T.Type)`` on Apple platforms too, where a class metatype also converts to
  /// `AnyObject`. An `AnyObject` value is accepted as it is.
  ///
  /// - Parameter observer: An object registered with ``register(_:function:)-(Observer,_)`` or
  ///   ``register(_:handler:)``.
  public func unregister<Observer: AnyObject>(_ observer: Observer) {
    list.removeObserver(observer)
  }

  /// Ends the type-level registration of `type`, if it has one.
  ///
  /// After it returns, the type's function is not invoked again. Thread-safe, and safe from a
  /// handler.
  ///
  /// - Parameter type: A type registered with ``register(_:function:)-(T.Type,_)``.
  public func unregister<T>(_ type: T.Type) {
    let key = typeKeys.withLock { $0[ObjectIdentifier(type)] }
    if let key { list.removeObserver(key) }
  }

  /// Ends every registration: observers, types, subscriptions and ``values`` streams, which
  /// finish.
  ///
  /// Tokens of subscriptions ended this way report `isCancelled`. Thread-safe, and safe from a
  /// handler: the rest of a post in progress reaches nobody.
  public func unregisterAll() {
    list.removeAll()
    finishStreams()
  }

  /// Delivers `payload` to every live registration, in registration order.
  ///
  /// With `.synchronous` delivery every handler has run when `post` returns; with `.queue` or
  /// `.mainActor` it returns at once. The post reaches the registrations present when it starts,
  /// minus those that end meanwhile; registrations added during it get the next post.
  ///
  /// ```swift
  /// Downloads.didFinish.post(("report.pdf", 1024))
  /// ```
  ///
  /// Thread-safe, from any thread or queue, including from a handler of this event.
  ///
  /// - Parameter payload: The value handed to every handler.
  /// - Complexity: O(*n*) in the number of registrations.
  @inlinable
  public func post(_ payload: Payload) {
    list.post(payload)
  }

  /// Delivers the payload's elements, given one by one: `post()` for `Event<Void>`,
  /// `post("a", 3)` for `Event<(String, Int)>`.
  ///
  /// The same as ``post(_:)-(Payload)`` with the elements made into a tuple. Labelled tuple
  /// payloads are posted as a tuple: `post((name: "a", count: 1))`.
  ///
  /// - Parameter element: The payload's elements, in order.
  /// - Complexity: O(*n*) in the number of registrations.
  public func post<each Element>(_ element: repeat each Element)
  where Payload == (repeat each Element) {
    list.post((repeat each element))
  }

  /// The number of live registrations: observers, types, subscriptions and ``values`` streams.
  ///
  /// Registrations whose observer was deallocated are purged, not counted. Thread-safe.
  ///
  /// - Complexity: O(*n*) in the number of registrations.
  public var observerCount: Int {
    list.count
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
