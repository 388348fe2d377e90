import EventCore
import Foundation

/// The channels in use, one per (center, name), each with its center registration.
///
/// A channel lives as long as one of its observations does: every observation holds a
/// ``ChannelLease``, captured by its entry's handler, so the lease ends when the entry is
/// released, whether by cancellation, by a purge after its owner or target died, or with the
/// list. When the last lease ends the channel leaves the registry and its center registration is
/// removed. A subscription that races with that last release either joins the channel before its
/// count falls to 0 or creates a fresh one, which replaces the retiring channel's record: a join
/// raises the count only from above 0 (under the registry's lock), so a count at 0 is final and
/// the release that brought it there is the only one to retire the channel.
///
/// The center is never called, and nothing that a removal releases is dropped, under the lock.
final class ChannelRegistry: Sendable {
  static let shared = ChannelRegistry()

  private struct Record: Sendable {
    let channel: NotificationChannel
    let registration: CenterRegistration
  }

  private struct State: Sendable {
    var records: [ChannelKey: Record] = [:]
    /// The channel leased last, found again without hashing its name: observations of one name
    /// tend to come in runs. Always a channel of `records` (cleared when its record goes), so
    /// dropping this reference never releases the channel under the lock.
    var recent: NotificationChannel?
  }

  private let state = Lock(State())

  /// Returns a lease on the channel of `center` and `name`, creating and registering it first if
  /// needed, and on the channel's group of `sender`'s observers if `sender` is not `nil`. The
  /// channel is registered with the center before the lease is returned, so every post that
  /// starts after the caller's subscription is in place reaches it.
  ///
  /// `call` is the handler of a closure observation, which its entry calls through the lease.
  func lease(
    center: NotificationCenter, name: Notification.Name?, sender: AnyObject?,
    call: @escaping @Sendable (Notification) -> Void = { _ in }
  ) -> ChannelLease {
    if let channel = state.withLock({ Self.joinRecent(center, name, in: &$0) }) {
      return ChannelLease(channel: channel, sender: sender, call: call, registry: self)
    }
    // Hashed outside the lock.
    let key = ChannelKey(center: ObjectIdentifier(center), name: name)
    if let channel = state.withLock({ Self.join(key, center: center, in: &$0) }) {
      return ChannelLease(channel: channel, sender: sender, call: call, registry: self)
    }
    // Registering calls into the center, so it happens before taking the lock; when another
    // thread won the race meanwhile, its channel is used and this registration is undone.
    let fresh = NotificationChannel(center: center, name: name)
    let registration = fresh.register(with: center)
    let (channel, evicted) = state.withLock { state -> (NotificationChannel, Record?) in
      if let winner = Self.join(key, center: center, in: &state) { return (winner, nil) }
      // A record left here cannot be joined: its center died and `center` reuses its address
      // (its observations can no longer be posted to and end on their own), or its last lease
      // has ended and that release has not removed it yet (and will find it replaced).
      let evicted = state.records.updateValue(
        Record(channel: fresh, registration: registration), forKey: key)
      state.recent = fresh
      return (fresh, evicted)
    }
    if channel !== fresh { fresh.unregister(registration) }
    // Its center is gone (nothing to remove) or the channel is retiring: removed here.
    if let evicted { evicted.channel.unregister(evicted.registration) }
    return ChannelLease(channel: channel, sender: sender, call: call, registry: self)
  }

  /// Ends `lease`, retiring its channel after the channel's last lease.
  func release(_ lease: ChannelLease) {
    let channel = lease.channel
    // Without the lock: a count at 0 is never raised again, so the channel is this call's to
    // retire.
    guard channel.dropLease() else { return }
    let retired = state.withLock { state -> Record? in
      // `lease` still holds the channel: this is not its last reference.
      if state.recent === channel { state.recent = nil }
      // An evicted channel (a new lease found it retiring, or its dead center's address reused)
      // is no longer the record, and its registration was removed by the lease that evicted it.
      guard let index = state.records.index(forKey: channel.key),
        state.records.values[index].channel === channel
      else { return nil }
      let retired = state.records.remove(at: index).value
      state.records.shrinkIfSparse()
      return retired
    }
    if let retired { retired.channel.unregister(retired.registration) }
  }

  /// Whether a channel of `center` and `name` is registered now, for tests of the teardown.
  func hasChannel(center: NotificationCenter, name: Notification.Name?) -> Bool {
    let key = ChannelKey(center: ObjectIdentifier(center), name: name)
    return state.withLock { $0.records[key]?.channel.belongs(to: center) ?? false }
  }

  /// The live channels of `center` that a notification named `name` reaches: the channel of
  /// `name` and that of every notification; for a `nil` name, every channel of `center`.
  func channels(of center: NotificationCenter, reachedBy name: Notification.Name?)
    -> [NotificationChannel]
  {
    let id = ObjectIdentifier(center)
    let found = state.withLock { state -> [NotificationChannel] in
      guard let name else {
        return state.records.compactMap { $0.key.center == id ? $0.value.channel : nil }
      }
      let keys = [ChannelKey(center: id, name: name), ChannelKey(center: id, name: nil)]
      return keys.compactMap { state.records[$0]?.channel }
    }
    // A channel of a dead center whose address `center` reuses is not one of its own.
    return found.filter { $0.belongs(to: center) }
  }

  /// How many records the registry's storage has room for, for tests that it shrinks.
  var capacity: Int {
    state.withLock { $0.records.capacity }
  }

  /// Takes one more lease on the recent channel if it is the live channel of `center` and
  /// `name` and is not retiring.
  private static func joinRecent(
    _ center: NotificationCenter, _ name: Notification.Name?, in state: inout State
  ) -> NotificationChannel? {
    guard let recent = state.recent, recent.key.center == ObjectIdentifier(center),
      recent.key.name == name, recent.belongs(to: center), recent.takeLease()
    else { return nil }
    return recent
  }

  /// Takes one more lease on the live channel under `key`, if there is one for `center` that is
  /// not retiring.
  private static func join(
    _ key: ChannelKey, center: NotificationCenter, in state: inout State
  ) -> NotificationChannel? {
    guard let channel = state.records[key]?.channel, channel.belongs(to: center),
      channel.takeLease()
    else { return nil }
    state.recent = channel
    return channel
  }
}

/// One observation's hold on its channel, and on its sender's group if it filters by sender.
///
/// The entry's handler captures the lease, which therefore ends exactly when the entry is
/// released.
final class ChannelLease: Sendable {
  let channel: NotificationChannel
  /// The group of the observations of the filtered sender; `nil` for every sender.
  let group: SenderGroup?
  /// The handler of a closure observation; a no-op for the other forms. Called through the
  /// lease, the entry's handler captures the lease alone, which Swift then uses as the closure's
  /// context: no context of its own to allocate.
  let call: @Sendable (Notification) -> Void
  private let registry: ChannelRegistry

  fileprivate init(
    channel: NotificationChannel, sender: AnyObject?,
    call: @escaping @Sendable (Notification) -> Void, registry: ChannelRegistry
  ) {
    self.channel = channel
    self.group = sender.map(channel.join)
    self.call = call
    self.registry = registry
  }

  /// Inserts `entry` into the channel, among the observers of the lease's sender if it has one.
  func subscribe(
    _ entry: ObserverEntry<PostedNotification>, endsWithToken: Bool = true
  ) -> Subscription {
    channel.subscribe(entry, in: group, endsWithToken: endsWithToken)
  }

  deinit {
    if let group { channel.leave(group) }
    // The lease, not its channel: a field passed on from `deinit` is retained for the call.
    registry.release(self)
  }
}
