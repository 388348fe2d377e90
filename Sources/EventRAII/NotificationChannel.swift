import EventCore
import Foundation
import Synchronization

/// The registry key of a channel: one center and one name, where a `nil` name (every
/// notification) is a key of its own.
struct ChannelKey: Hashable, Sendable {
  let center: ObjectIdentifier
  let name: Notification.Name?
  /// The name's hash, computed once: a registry lookup hashes this number instead of the name's
  /// string.
  private let nameHash: Int

  init(center: ObjectIdentifier, name: Notification.Name?) {
    self.center = center
    self.name = name
    self.nameHash = name.hashValue
  }

  static func == (lhs: ChannelKey, rhs: ChannelKey) -> Bool {
    lhs.center == rhs.center && lhs.nameHash == rhs.nameHash && lhs.name == rhs.name
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(center)
    hasher.combine(nameHash)
  }
}

/// The observer token a center returned, kept to remove the registration later.
///
/// `@unchecked Sendable`: the token is an opaque object owned by the center; we never read or
/// call it, we only hand it back to `removeObserver(_:)`, which is thread-safe.
struct CenterRegistration: @unchecked Sendable {
  let token: any NSObjectProtocol
}

/// The observers of one (center, name) pair that filter by one sender.
///
/// The sender is not kept alive: once it dies the group matches nothing, not even an object
/// later allocated at its address (see ``IdentityReference``).
final class SenderGroup: Sendable {
  let sender: IdentityReference<AnyObject>
  let observers = ObserverList<PostedNotification>()

  /// Makes the group of `sender`'s observers of notifications named `name`.
  init(_ sender: AnyObject, name: Notification.Name?) {
    self.sender = IdentityReference(sender)
    // The type, not the sender, which the group must not keep alive.
    let senderType: any AnyObject.Type = type(of: sender)
    observers.nameChannel { "\(NotificationChannel.describe(name)) object \(senderType)" }
  }
}

/// The ordered observers of one (center, name) pair, behind a single center registration.
///
/// The center calls its own observers in an order of its choosing (on Linux, Foundation keeps
/// them in a dictionary and calls them in hash order, which changes from run to run), so each
/// channel registers once and delivers to its own lists in registration order.
///
/// Observers of every sender are in ``observers``; observers with an `object:` filter are in
/// the ``SenderGroup`` of their sender, found by the posted object's identity, so a post costs
/// the same however many observers of other senders there are. Every entry carries its place in
/// registration order (`order`), and a post merges its sender's group with ``observers`` by it.
final class NotificationChannel: Sendable {
  let key: ChannelKey
  /// The observers of every sender.
  let observers = ObserverList<PostedNotification>()
  /// Not a strong reference, so that dropping a `NotificationCenter()` instance deinitializes
  /// it even while tokens live.
  private let center: IdentityReference<NotificationCenter>
  private struct SenderRecord: Sendable {
    let group: SenderGroup
    /// Observations holding the group; it leaves the index with the last.
    var leases: Int
  }

  /// The sender groups by sender identity. A record whose sender died stays until its last
  /// observation ends or a new object at the same address observes (which replaces it).
  private let senders = Lock<[ObjectIdentifier: SenderRecord]>([:])
  /// `senders.count`, read by every post without the lock: posts of a channel without filtered
  /// observers do not look the sender up at all.
  private let senderCount = Atomic<Int>(0)
  /// The next registration's `order`.
  private let nextOrder = Atomic<Int>(1)

  init(center: NotificationCenter, name: Notification.Name?) {
    self.key = ChannelKey(center: ObjectIdentifier(center), name: name)
    self.center = IdentityReference(center)
    observers.nameChannel { Self.describe(name) }
  }

  /// How the registration warning names the channel of `name`: `NotificationCenter name
  /// didSave`, or `NotificationCenter name nil (every notification)`.
  static func describe(_ name: Notification.Name?) -> String {
    "NotificationCenter name \(name?.rawValue ?? "nil (every notification)")"
  }

  /// Whether this channel was made for `center`, which the caller holds. Safe under a lock.
  func belongs(to center: NotificationCenter) -> Bool {
    self.center.refers(to: center)
  }

  /// Every list of the channel: the observers of every sender, then each sender group's.
  var lists: [ObserverList<PostedNotification>] {
    [observers] + senders.withLock { $0.values.map(\.group.observers) }
  }

  /// Inserts `entry` into the list of `group`, or of every sender when `group` is `nil`, after
  /// every entry registered before it.
  func subscribe(
    _ entry: ObserverEntry<PostedNotification>, in group: SenderGroup?, endsWithToken: Bool
  ) -> Subscription {
    entry.order = nextOrder.add(1, ordering: .relaxed).oldValue
    // Each list called in place: `??` would copy the chosen list's reference, and the entries'
    // weak references to their list make each retain and release of it a slow one.
    if let group { return group.observers.subscribe(entry, endsWithToken: endsWithToken) }
    return observers.subscribe(entry, endsWithToken: endsWithToken)
  }

  /// The group of the observers of `sender`, joined: call ``leave(_:)`` once when the
  /// observation ends.
  func join(_ sender: AnyObject) -> SenderGroup {
    let id = ObjectIdentifier(sender)
    while true {
      let found = senders.withLock { $0[id]?.group }
      // Outside the lock (on Apple platforms, a weak load).
      let alive = found.map { $0.sender.refers(to: sender) } ?? false
      let (joined, evicted) = senders.withLock {
        records -> (SenderGroup?, SenderRecord?) in
        guard records[id]?.group === found else { return (nil, nil) }  // changed meanwhile
        if alive, var record = records[id] {
          record.leases += 1
          records[id] = record
          return (record.group, nil)
        }
        let fresh = SenderGroup(sender, name: key.name)
        let evicted = records.updateValue(SenderRecord(group: fresh, leases: 1), forKey: id)
        senderCount.store(records.count, ordering: .releasing)
        return (fresh, evicted)
      }
      // The group of a dead sender is released here, after the lock; its entries live on until
      // their tokens end, and match nothing.
      _ = evicted
      if let joined { return joined }
    }
  }

  /// Ends one observation's hold on `group`; the group leaves the index with the last.
  func leave(_ group: SenderGroup) {
    let id = group.sender.identifier
    let removed = senders.withLock { records -> SenderRecord? in
      guard var record = records[id], record.group === group else { return nil }
      record.leases -= 1
      guard record.leases == 0 else {
        records[id] = record
        return nil
      }
      let removed = records.removeValue(forKey: id)
      records.shrinkIfSparse()
      senderCount.store(records.count, ordering: .releasing)
      return removed
    }
    _ = removed
  }

  /// Registers the channel with `center`; every notification of its name is posted to the
  /// channel's observers on the posting thread.
  ///
  /// The center holds the channel strongly through the block until the registration is removed
  /// or the center is deallocated.
  func register(with center: NotificationCenter) -> CenterRegistration {
    let deliver: @Sendable (Notification) -> Void = { notification in
      PublicationFence.shared.acquire()
      self.post(notification)
    }
    PublicationFence.shared.release()
    let token = center.addObserver(forName: key.name, object: nil, queue: nil, using: deliver)
    return CenterRegistration(token: token)
  }

  /// Removes `registration` from the center, if the center still lives. Call it outside any lock.
  func unregister(_ registration: CenterRegistration) {
    center.object?.removeObserver(registration.token)
  }

  /// Delivers `notification` to the observers of every sender and to those of its sender, merged
  /// in registration order.
  private func post(_ notification: Notification) {
    let posted = PostedNotification(notification: notification)
    guard let group = group(of: notification) else {
      observers.post(posted)
      return
    }
    var (deadInAll, deadInFiltered) = (false, false)
    observers.withEntries { all in
      group.observers.withEntries { filtered in
        var (nextAll, nextFiltered) = (0, 0)
        // One post across both lists, so its main-actor handlers keep its order (guarantee 13).
        var context = PostContext()
        while true {
          let orderAll = Self.order(in: all, from: &nextAll)
          let orderFiltered = Self.order(in: filtered, from: &nextFiltered)
          guard orderAll != nil || orderFiltered != nil else { return }
          if let orderAll, orderFiltered.map({ orderAll < $0 }) ?? true {
            if !Self.deliver(posted, in: all, at: nextAll, &context) { deadInAll = true }
            nextAll += 1
          } else {
            if !Self.deliver(posted, in: filtered, at: nextFiltered, &context) {
              deadInFiltered = true
            }
            nextFiltered += 1
          }
        }
      }
    }
    if deadInAll { observers.purge() }
    if deadInFiltered { group.observers.purge() }
  }

  /// The registration order of the first entry of `entries` at or after `index`, which it
  /// advances past cleared slots; `nil` past the end.
  private static func order(
    in entries: ObserverList<PostedNotification>.Entries, from index: inout Int
  ) -> Int? {
    while index < entries.count {
      if let order = entries.withEntry(at: index, { $0?.order }) { return order }
      index += 1
    }
    return nil
  }

  /// Delivers to the entry in slot `index` of `entries`.
  ///
  /// - Returns: `false` when it is dead and not yet cancelled, so the caller purges.
  private static func deliver(
    _ posted: PostedNotification, in entries: ObserverList<PostedNotification>.Entries,
    at index: Int, _ context: inout PostContext
  ) -> Bool {
    entries.withEntry(at: index) { entry in
      guard let entry else { return true }
      return entry.deliver(posted, &context) || entry.isCancelled
    }
  }

  /// The group of the notification's sender, if it has one and the sender is the object the group
  /// was made for.
  private func group(of notification: Notification) -> SenderGroup? {
    guard senderCount.load(ordering: .acquiring) > 0,
      let sender = PostedSender.object(of: notification)
    else { return nil }
    let id = ObjectIdentifier(sender)
    guard let group = senders.withLock({ $0[id]?.group }) else { return nil }
    // Outside the lock (on Apple platforms, a weak load): the notification holds `sender`. A
    // dead sender's group refers to no live object, so an object at its address matches nothing.
    return group.sender.refers(to: sender) ? group : nil
  }
}

extension Dictionary {
  /// Gives back the storage of a dictionary that has fallen to a quarter of its capacity: after a
  /// burst of keys came and went, `removeValue` alone keeps the storage of the peak for good.
  ///
  /// Only the storage goes: the values move to the new dictionary, so nothing is released (under
  /// the caller's lock). Amortised O(1) per removal, since each shrink follows at least as many
  /// removals as it moves values.
  mutating func shrinkIfSparse() {
    guard capacity >= 64, count * 4 < capacity else { return }
    var shrunk = [Key: Value](minimumCapacity: count * 2)
    for (key, value) in self { shrunk[key] = value }
    self = shrunk
  }
}
