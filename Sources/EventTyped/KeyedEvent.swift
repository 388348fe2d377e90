import EventCore

/// A typed event whose posts go to one key's registrations: one reply among thousands of
/// waiters, one channel per document, user or download.
///
/// Each key has its own ``Channel``, with every registration, posting and waiting form of
/// ``Event``; a post to a key reaches that key's registrations only, so its cost does not grow
/// with the number of other keys:
///
/// ```swift
/// let replies = KeyedEvent<RequestID, Reply>()
///
/// let reply = try await replies[id].next(timeout: .seconds(5)) { try await send(request) }
/// replies.post(reply, to: reply.id)  // reaches the waiter of reply.id only
/// ```
///
/// A key exists while it has registrations. The first registration on a key makes its list;
/// when the last one ends (cancelled, its observer or actor released, a `next` that returned,
/// threw or timed out) the key is removed with its list, so memory follows the live
/// registrations however many keys have come and gone. Keys whose observers died without the
/// event noticing are swept each time the number of keys doubles, by the registration that
/// doubles it, so registering on many keys that are never posted to piles nothing up.
///
/// ### How a post finds its key
/// A post looks its key up in one dictionary under a lock, retains the key's list, and leaves
/// the lock before calling anyone; it then reads that list exactly as ``Event/post(_:)-(Payload)``
/// does (no lock, no allocation, no retain per observer). Posts to different keys wait on one
/// another only for that lookup: one hash and one probe.
///
/// A key whose registrations are all waiting `next` calls (a request waiting for its reply) has
/// no list: its waits are kept in the table beside the key, and a post offers them the payload
/// before the key's list, if it has one. See the "Request and reply" article for the order this
/// keeps.
///
/// ### Threading
/// Every member is thread-safe. Handlers run per key exactly as they would on an ``Event`` with
/// this ``delivery`` (see its Threading section), ``reentrancy`` aside. ``reentrancy``
/// applies across keys: with ``Reentrancy/queued``, a post that a synchronous handler makes to any
/// key of this event during a post on the same thread is delivered after that post.
///
/// Releasing the keyed event ends every key's registrations, as releasing an ``Event`` does.
/// A ``Channel`` holds its keyed event, so a stored channel keeps it alive.
///
/// In a target with default `MainActor` isolation, declare the key type `nonisolated`
/// (`nonisolated struct DocumentID: Hashable, Sendable`): otherwise its `Hashable` conformance
/// is isolated to the main actor and cannot satisfy `Key`.
///
/// Replay is not offered per key: a keyed event has no `replay:`.
public final class KeyedEvent<Key: Hashable & Sendable, Payload: Sendable>: Sendable {
  /// Where every handler of every key runs, unless it is isolated to an actor.
  public let delivery: Delivery

  /// What a post made by a synchronous handler of this event, to any key, during a post on the
  /// same thread, does: delivered at once (``Reentrancy/immediate``) or after the post in
  /// progress (``Reentrancy/queued``).
  public let reentrancy: Reentrancy

  /// Every post of every key, with its key, after the key's own registrations: for logging and
  /// metrics.
  ///
  /// Keys nobody observes are included. Registering here creates no key, and the count
  /// ``post(_:to:)`` returns does not include these registrations. It has the keyed event's
  /// delivery.
  public let all: Event<(Key, Payload)>

  /// The keys with a live registration, each with its list.
  // A lock rather than a lock-free table: registrations and removals change the table as often
  // as posts read it (a server registers per request), and a lock-free table would make each
  // of those pay for a new table, or every post pay for hazard tracking.
  @usableFromInline let keys = Lock(KeyTable<Key, Payload>())

  /// The ``errors`` channel, shared by every key's list.
  @usableFromInline let errorChannel = Lock(ErrorChannel())

  /// The backlog of every key's registrations: the flow of every key's list when it is
  /// unbounded (nothing to report), and the parent of each key's own flow otherwise, which
  /// reports that key's drops here. Holds ``drops``.
  @usableFromInline let flow: FlowControl

  /// The passive registrations of every key (``tap(_:_:)``), in a list of their own, made by the
  /// first: test recorders, which must see a key's posts without making the key.
  @usableFromInline let taps = LazyReference()

  /// Creates a keyed event with no keys.
  ///
  /// - Parameters:
  ///   - delivery: Where handlers written in nonisolated code run: `.synchronous` (the default)
  ///     on the posting thread, `.queue(q)` on `q`, `.mainActor` on the main actor.
  ///   - reentrancy: What a post made by a synchronous handler of this event, during a post on
  ///     the same thread, does: ``Reentrancy/immediate`` (the default) delivers it at once;
  ///     ``Reentrancy/queued`` after the post in progress, whatever its key.
  ///   - backlog: How many calls each registration that runs later, under any key, may have
  ///     waiting; what a bounded backlog drops is reported to ``drops``. ``all`` has it too.
  public init(
    delivery: Delivery = .synchronous, reentrancy: Reentrancy = .immediate,
    backlog: Backlog = .unbounded
  ) {
    self.delivery = delivery
    self.reentrancy = reentrancy
    self.all = Event(delivery: delivery, backlog: backlog)
    self.flow = FlowControl(backlog: backlog) { "KeyedEvent<\(Key.self), \(Payload.self)>" }
    all.list.nameChannel { "KeyedEvent<\(Key.self), \(Payload.self)>.all" }
  }

  /// The channel of `key`: every registration, posting and waiting form of ``Event``, scoped to
  /// that key.
  ///
  /// Forming a channel allocates nothing and creates no key; the key is made by its first
  /// registration. A channel holds this keyed event (strongly) and its key, and every call looks
  /// the key up, so a stored channel keeps working after its key was removed and made again.
  public subscript(key: Key) -> Channel {
    Channel(keyed: self, key: key)
  }

  /// Delivers `payload` to the registrations of `key`, as ``Event/post(_:)-(Payload)`` does,
  /// then to the registrations of ``all``.
  ///
  /// ```swift
  /// replies.post(reply, to: reply.id)
  /// ```
  ///
  /// A key nobody observes costs the lookup alone: it creates nothing and returns 0.
  ///
  /// - Parameters:
  ///   - payload: The value handed to every handler of `key`.
  ///   - key: The key whose registrations receive it.
  /// - Returns: The number of `key`'s registrations the post reached (called, or queued where
  ///   their delivery or isolation says), not counting ``all``'s.
  /// - Complexity: One hash lookup plus O(*n*) in `key`'s registrations, whatever the number of
  ///   other keys.
  @inlinable @discardableResult
  public func post(_ payload: Payload, to key: Key) -> Int {
    guard reentrancy.queues else { return deliver(payload, to: key) }
    return PostFrames.post(
      (key, payload), queuedBy: ObjectIdentifier(self),
      deliver: { deliver($0.1, to: $0.0) }, registered: { registeredCount(of: key) })
  }

  /// Delivers a post now, whatever the reentrancy.
  @inlinable
  func deliver(_ payload: Payload, to key: Key) -> Int {
    if let taps = taps.load(as: ObserverList<(Key, Payload)>.self) { taps.post((key, payload)) }
    var reached = 0
    if let (event, waiters) = lookUp(key) {
      if !waiters.isEmpty { reached = offer(payload, to: waiters, of: key) }
      if let event { reached += event.deliver(payload) }
    }
    if all.isObserved { all.post((key, payload)) }
    return reached
  }

  /// Ends `observer`'s registrations under every key: its `register` forms, on each channel.
  ///
  /// - Complexity: O(*k*) in the number of keys.
  public func unregister(_ observer: AnyObject) {
    let events = keys.withLock { table in table.slots.values.compactMap { $0.event } }
    for event in events { event.list.removeObserver(observer) }
  }

  /// The number of keys with a registration whose end the event has not yet seen.
  ///
  /// A key whose registrations ended is removed as they end; one whose observers died counts
  /// until a post, a count or the amortised sweep finds them dead.
  public var keyCount: Int {
    keys.withLock { $0.slots.count }
  }

  /// The limit on what each registration that runs later, under any key, may have waiting.
  public var backlog: Backlog {
    flow.backlog
  }

  /// What the bounded backlogs of every key dropped, each with its key and where the
  /// registration was written; as ``Event/drops`` for one event (``all``'s drops go to its
  /// own).
  public var drops: Event<(Key, Drop)> {
    if let drops = flow.drops.load(as: Event<(Key, Drop)>.self) { return drops }
    return flow.drops.storeIfNil(Event<(Key, Drop)>())
  }

  /// The errors thrown by the throwing handlers of every key, each with where its registration
  /// was written; as ``Event/errors`` for one event. The channel of each key reports here.
  public var errors: Event<HandlerError> {
    errorChannel.errors
  }
}

extension KeyedEvent: CustomDebugStringConvertible {
  /// The keyed event, its delivery and its number of keys: `KeyedEvent<Int, String>(3 keys)`.
  public var debugDescription: String {
    "KeyedEvent<\(Key.self), \(Payload.self)>(\(keyCount) keys, \(delivery))"
  }
}
