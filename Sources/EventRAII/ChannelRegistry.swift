import EventCore
import Foundation

/// The channels in use, one per (center, name), each with its center registration.
///
/// A channel lives as long as one of its observations does: every observation's entry holds the
/// channel's ``ChannelLife`` (in its `attachment`), so the hold ends exactly when the entry is
/// released, whether by cancellation, by a purge after its owner or target died, or with the
/// list, and no object is made per observation. The registry refers to each life without
/// keeping it alive (an `UnownedObject`); the life's `deinit`, once the last entry lets go, takes
/// the channel's record out and removes its center registration. A subscription that races with
/// that last release either takes a strong reference to the life before its count falls to 0,
/// or finds it deinitializing (the reference answers `nil` from then on, for good) and creates a
/// fresh channel, which replaces the retiring channel's record: so the release that ends a
/// life's count is the only one to retire its channel.
///
/// The center is never called, and no life is released (its `deinit` takes the lock), under the
/// lock.
final class ChannelRegistry: Sendable {
  static let shared = ChannelRegistry()

  /// A channel in the registry. A class: a `Dictionary` value must be copyable, and the
  /// reference to the life is not.
  private final class Record: Sendable {
    let channel: NotificationChannel
    let life: UnownedObject<ChannelLife>

    init(channel: NotificationChannel, life: ChannelLife) {
      self.channel = channel
      self.life = UnownedObject(life)
    }

    /// Whether this is the live channel of `center`, which the caller holds, and `name`.
    func isChannel(of center: NotificationCenter, _ name: Notification.Name?) -> Bool {
      channel.key.center == ObjectIdentifier(center) && channel.key.name == name
        && channel.belongs(to: center)
    }
  }

  private struct State: Sendable {
    var records: [ChannelKey: Record] = [:]
    /// The record leased last, found again without hashing its name: observations of one name
    /// tend to come in runs. Always a record of `records` (cleared when it goes).
    var recent: Record?
  }

  private let state = Lock(State())

  /// Returns a lease on the channel of `center` and `name`, creating and registering it first if
  /// needed, and on the channel's group of `sender`'s observers if `sender` is not `nil`. The
  /// channel is registered with the center before the lease is returned, so every post that
  /// starts after the caller's subscription is in place reaches it.
  func lease(center: NotificationCenter, name: Notification.Name?, sender: AnyObject?)
    -> ChannelLease
  {
    ChannelLease(life: life(center: center, name: name), sender: sender)
  }

  /// The life of the channel of `center` and `name`, strongly: the channel made and registered
  /// first if it has none, or only a retiring one.
  private func life(center: NotificationCenter, name: Notification.Name?) -> ChannelLife {
    if let life = state.withLock({ Self.joinRecent(center, name, in: &$0) }) { return life }
    // Hashed outside the lock.
    let key = ChannelKey(center: ObjectIdentifier(center), name: name)
    if let life = state.withLock({ Self.join(key, center: center, in: &$0) }) { return life }
    // Registering calls into the center, so it happens before taking the lock.
    let fresh = NotificationChannel(center: center, name: name)
    let made = ChannelLife(
      channel: fresh, registration: fresh.register(with: center), registry: self)
    let (winner, evicted) = state.withLock { state -> (ChannelLife?, Record?) in
      if let winner = Self.join(key, center: center, in: &state) { return (winner, nil) }
      // A record left here cannot be joined: its center died and `center` reuses its address
      // (its observations can no longer be posted to and end on their own), or its life has
      // ended and its `deinit` has not removed it yet (and will find it replaced). Either way
      // that life removes its own center registration.
      let record = Record(channel: fresh, life: made)
      let evicted = state.records.updateValue(record, forKey: key)
      state.recent = record
      return (nil, evicted)
    }
    _ = evicted  // Released after the lock.
    // When another thread won the race, `made` is released on return, and its `deinit` undoes
    // its registration.
    return winner ?? made
  }

  /// Takes `channel`'s record out, unless a fresh channel replaced it, then removes its center
  /// registration: for its life's `deinit`, which the last observation's release runs.
  fileprivate func retire(_ channel: NotificationChannel, registration: CenterRegistration) {
    let retired = state.withLock { state -> (Record?, Record?) in
      let recent = state.recent?.channel === channel ? state.recent.take() : nil
      guard let index = state.records.index(forKey: channel.key),
        state.records.values[index].channel === channel
      else { return (recent, nil) }
      let retired = state.records.remove(at: index).value
      state.records.shrinkIfSparse()
      return (recent, retired)
    }
    _ = retired  // Released after the lock.
    channel.unregister(registration)
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

  /// The life of the recent channel, strongly, if it is the live channel of `center` and `name`
  /// and is not retiring.
  private static func joinRecent(
    _ center: NotificationCenter, _ name: Notification.Name?, in state: inout State
  ) -> ChannelLife? {
    // Read in place: copying the record out would retain and release it.
    guard state.recent?.isChannel(of: center, name) == true else { return nil }
    // Returned out of the lock, where it is released.
    return state.recent?.life.object
  }

  /// The life of the live channel under `key`, strongly, if there is one for `center` that is
  /// not retiring.
  private static func join(
    _ key: ChannelKey, center: NotificationCenter, in state: inout State
  ) -> ChannelLife? {
    guard let record = state.records[key], record.channel.belongs(to: center),
      let life = record.life.object
    else { return nil }
    state.recent = record
    return life
  }
}

/// What keeps a channel registered: every observation's entry holds it, and its `deinit`, when
/// the last has let go, retires the channel.
final class ChannelLife: Sendable {
  let channel: NotificationChannel
  private let registration: CenterRegistration
  private let registry: ChannelRegistry

  fileprivate init(
    channel: NotificationChannel, registration: CenterRegistration, registry: ChannelRegistry
  ) {
    self.channel = channel
    self.registration = registration
    self.registry = registry
  }

  deinit {
    registry.retire(channel, registration: registration)
  }
}

/// One observation's hold on its channel, and on its sender's group if it filters by sender.
struct ChannelLease {
  let channel: NotificationChannel
  /// The group of the observations of the filtered sender; `nil` for every sender.
  let group: SenderGroup?
  /// What the observation's entry holds in its `attachment`, so that the hold ends exactly when
  /// the entry is released: the channel's life, or a ``SenderLease`` that holds it.
  let holder: AnyObject

  init(life: ChannelLife, sender: AnyObject?) {
    channel = life.channel
    guard let sender else {
      group = nil
      holder = life
      return
    }
    let group = life.channel.join(sender)
    self.group = group
    holder = SenderLease(life: life, group: group)
  }

  /// Inserts `entry` into the channel, among the observers of the lease's sender if it has one;
  /// the entry holds the lease from then on.
  func subscribe(
    _ entry: ObserverEntry<PostedNotification>, endsWithToken: Bool = true
  ) -> Subscription {
    entry.attachment = holder
    return channel.subscribe(entry, in: group, endsWithToken: endsWithToken)
  }
}

/// An observation's hold on its sender's group, and through it on the channel.
final class SenderLease: Sendable {
  private let life: ChannelLife
  private let group: SenderGroup

  init(life: ChannelLife, group: SenderGroup) {
    self.life = life
    self.group = group
  }

  deinit {
    life.channel.leave(group)
  }
}
