/// One registration in an ``ObserverList``: a handler, how to deliver to it, and what keeps it
/// live.
///
/// The entry is its own ``Liveness``, which its `Subscription` shares.
///
/// `@unchecked Sendable`: every stored property is immutable after `init` except `index`, which
/// only the owning `ObserverList` reads and writes, under its `state` mutex, and `list`, `leave`,
/// `order` and `attachment`, which are written once before the entry is published through that
/// mutex. The handlers are not `@Sendable` because the public API accepts plain closures and
/// unbound methods: they run on the thread their `Delivery` names, as the API documents.
/// `observer` is a weak reference, whose loads the runtime makes atomic.
@usableFromInline package final class ObserverEntry<Payload>: Liveness, @unchecked Sendable {
  @usableFromInline enum Handler {
    case plain((Payload) -> Void)
    case bound((AnyObject, Payload) -> Void)
  }

  /// Shared with the registration's `Subscription`; checked before every invocation.
  @inlinable package var liveness: Liveness { self }
  @usableFromInline package let delivery: Delivery
  /// The observer's identity, for lists that keep one registration per observer.
  @usableFromInline package let key: ObjectIdentifier?
  /// The observer of a registration made with one; `nil` for a closure, or once it is gone.
  /// A weak load: read it outside any lock.
  @usableFromInline package weak let observer: AnyObject?
  @usableFromInline let handler: Handler

  /// The entry's place in registration order among the entries of several lists that one post
  /// delivers from together (EventRAII keeps one list per sender beside the list of observers of
  /// every sender, and merges them by this number). Set before the entry is inserted; 0 for
  /// entries that only ever share a list.
  @inlinable package var order: Int {
    get { _order }
    set { _order = newValue }
  }

  /// What a caller that calls its observers itself, rather than through the handler, keeps per
  /// registration (EventBroadcast: the observer as the protocol type it was registered as). Set
  /// before the entry is inserted.
  @inlinable package var attachment: AnyObject? {
    get { _attachment }
    set { _attachment = newValue }
  }

  /// ``attachment`` without a retain, for a post path: valid while the caller holds the entry,
  /// which holds the attachment and never changes it once inserted.
  @inlinable package var unretainedAttachment: Unmanaged<AnyObject>? {
    _attachment.map { Unmanaged.passUnretained($0) }
  }

  // Stored behind inlinable accessors: a client module reading the stored properties directly
  // does not see `@exclusivity(unchecked)` and checks every access at run time (about 80
  // instructions each, callgrind).
  @exclusivity(unchecked) @usableFromInline var _order = 0
  @exclusivity(unchecked) @usableFromInline var _attachment: AnyObject?

  /// Position in the owning list's slots; guarded by that list's `state` mutex.
  @exclusivity(unchecked) @usableFromInline var index = -1
  /// The list the entry is registered in, so that its token can leave it.
  @exclusivity(unchecked) @usableFromInline weak var list: ObserverList<Payload>?
  /// How to leave `list`: a function made where the list's code is specialized for `Payload`
  /// (it captures nothing, so it costs no allocation). Calling `list.remove` from here instead
  /// would run the unspecialized generic code, which looks up type metadata at every step.
  @exclusivity(unchecked) @usableFromInline var leave:
    ((ObserverList<Payload>, ObserverEntry<Payload>) -> Void)?

  /// A registration of a closure, live until cancelled.
  @inlinable
  package init(delivery: Delivery, handler: @escaping (Payload) -> Void) {
    self.delivery = delivery
    self.key = nil
    self.observer = nil
    self.handler = .plain(handler)
    super.init()
  }

  /// A registration that holds `observer` weakly and hands it to `handler` while it lives.
  ///
  /// - Parameters:
  ///   - observer: The object handed to `handler`, held weakly.
  ///   - keyed: Whether the list keeps one registration per observer: inserting another keyed
  ///     entry for the same object replaces this one.
  ///   - delivery: Where `handler` runs.
  ///   - handler: Called with the observer and the payload while the observer lives.
  @inlinable
  package init<Observer: AnyObject>(
    observer: Observer, keyed: Bool, delivery: Delivery,
    handler: @escaping (Observer, Payload) -> Void
  ) {
    self.delivery = delivery
    self.key = keyed ? ObjectIdentifier(observer) : nil
    self.observer = observer
    self.handler = .bound { object, payload in
      handler(unsafeDowncast(object, to: Observer.self), payload)
    }
    super.init()
  }

  /// Leaves the list (which cancels the entry), or, when the list is gone, just cancels.
  @usableFromInline override package func endRegistration() {
    if let list, let leave { leave(list, self) }
    cancel()
  }

  /// Whether the registration may still be invoked. Loads weak references: call it outside any
  /// lock.
  @usableFromInline package var isAlive: Bool {
    guard liveness.isLive else { return false }
    if case .bound = handler { return observer != nil }
    return true
  }

  /// Runs the handler on the calling thread if the registration is still live.
  ///
  /// - Returns: `false` when the registration is dead (cancelled, or its observer or owner is
  ///   gone), so the caller can purge it.
  @inlinable
  package func invoke(_ payload: Payload) -> Bool {
    invoke(payload) {}
  }

  /// Runs the handler, then `continuation`, as one invocation, if the registration is live.
  ///
  /// For callers whose work continues after the handler, such as a broadcaster that hands the
  /// observer the handler produced to a non-escaping closure.
  @inlinable
  package func invoke(_ payload: Payload, then continuation: () -> Void) -> Bool {
    guard liveness.isLive else { return false }
    switch handler {
    case .plain(let body):
      body(payload)
    case .bound(let body):
      // The strong reference taken here keeps the observer alive for the call only.
      guard let observer else { return false }
      body(observer, payload)
    }
    continuation()
    return true
  }
}

extension ObserverEntry where Payload: Sendable {
  /// Delivers `payload` as the entry's `Delivery` says.
  ///
  /// - Returns: `false` when the registration is dead, so the caller can purge it.
  @inlinable
  package func deliver(_ payload: Payload) -> Bool {
    switch delivery.kind {
    case .synchronous:
      return invoke(payload)
    case .queue(let queue):
      guard isAlive else { return false }
      queue.async { _ = self.invoke(payload) }
      return true
    case .mainActor:
      if MainActorDetection.isOnMainActor { return invoke(payload) }
      guard isAlive else { return false }
      DispatchQueue.main.async { _ = self.invoke(payload) }
      return true
    }
  }
}
