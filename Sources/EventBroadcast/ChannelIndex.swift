import EventCore
import Synchronization

/// The channels of a broadcaster by protocol, for every lookup to find without a lock.
///
/// `Broadcaster.channels` owns the channels and is the index's source of truth, under its lock;
/// this is a copy of its keys and unretained channel pointers in an open-addressed table of
/// atomic slots read lock-free, so a thread creating a channel (which takes the lock) never
/// waits behind a stream of notifications, and a notification, a registration or an
/// unregistration costs no lock and no `String`-strength hash to find its channel.
///
/// Why reading it without the lock is safe:
/// - Only `insert`, called under `Broadcaster.channels`' lock, writes; a slot is written once:
///   its channel first, then its key, both releasing; a reader that acquires the key sees the
///   channel.
/// - A full table is replaced by one twice its size, published with a releasing store; the old
///   table stays in `tables` for as long as the index, so a reader still probing it reads valid
///   memory, and finds there every channel published before it (a channel inserted meanwhile
///   belongs to a registration that had not returned when the lookup began; a registration
///   that misses it takes the lock and finds it there).
/// - Channels are never removed from a broadcaster, so a pointer read here is valid while the
///   broadcaster lives, which the caller guarantees.
final class ChannelIndex: Sendable {
  /// One slot: 0, or the bits of a protocol's `ObjectIdentifier` and of its channel's pointer,
  /// and of the route its last shared registration took (0 if none), unretained: `routes`
  /// keeps every route it ever held.
  final class Slot: Sendable {
    let key = Atomic<UInt>(0)
    let channel = Atomic<UInt>(0)
    let route = Atomic<UInt>(0)
  }

  final class Table: Sendable {
    let slots: [Slot]
    /// `slots` without their reference counts, for a notification to probe without retaining
    /// and releasing each slot it reads (two atomic operations per slot); `slots` keeps them
    /// alive as long as the table.
    let unretainedSlots: [Unmanaged<Slot>]
    let mask: Int

    init(capacity: Int) {
      slots = (0..<capacity).map { _ in Slot() }
      unretainedSlots = slots.map { Unmanaged.passUnretained($0) }
      mask = capacity - 1
    }

    /// The slot of `key`, or the empty slot where it would go. Never full (see `insert`).
    func slot(for key: UInt) -> Slot {
      slots[index(for: key)]
    }

    /// The channel pointer bits stored under `key`, or 0 if none is.
    func channelBits(for key: UInt) -> UInt {
      unretainedSlots[index(for: key)]._withUnsafeGuaranteedRef { slot in
        guard slot.key.load(ordering: .acquiring) == key else { return 0 }
        return slot.channel.load(ordering: .acquiring)
      }
    }

    /// The channel and shared route pointer bits stored under `key`, or 0 for either.
    func bits(for key: UInt) -> (channel: UInt, route: UInt) {
      unretainedSlots[index(for: key)]._withUnsafeGuaranteedRef { slot in
        guard slot.key.load(ordering: .acquiring) == key else { return (0, 0) }
        return (slot.channel.load(ordering: .acquiring), slot.route.load(ordering: .acquiring))
      }
    }

    /// The index of the slot of `key`, or of the empty slot where it would go.
    private func index(for key: UInt) -> Int {
      // Fibonacci hashing of the pointer bits: type metadata addresses are aligned, so the low
      // bits carry no information. In 64 bits on every platform: `UInt` has 32 on arm64_32
      // (watchOS devices), where the constant would not fit and `>> 32` would leave nothing.
      let hash = UInt64(key) &* 0x9E37_79B9_7F4A_7C15
      var index = Int(truncatingIfNeeded: hash >> 32) & mask
      while true {
        let found = unretainedSlots[index]._withUnsafeGuaranteedRef {
          $0.key.load(ordering: .acquiring)
        }
        if found == key || found == 0 { return index }
        index = (index + 1) & mask
      }
    }
  }

  /// Every table made, the current one last (kept here so that old tables outlive any
  /// reader), and every shared route a slot ever held, for as long as the index (so that a
  /// route read from a slot stays valid while the broadcaster lives); at most
  /// ``sharedRouteLimit``.
  private let tables = Lock<(tables: [Table], routes: [(key: UInt, route: ObserverRoute)])>(
    ([Table(capacity: 8)], []))
  /// The most shared routes a broadcaster keeps: one per observer type and protocol that
  /// registers synchronously, which a program has few of. Past it, registrations get routes
  /// of their own again.
  static let sharedRouteLimit = 64
  /// The current table, unretained (kept alive by `tables`), as pointer bits.
  private let current: Atomic<UInt>
  /// Channels in the current table, to grow it before it is half full.
  private let count = Atomic<Int>(0)

  init() {
    let first = tables.withLock { $0.tables[0] }
    current = Atomic(UInt(bitPattern: Unmanaged.passUnretained(first).toOpaque()))
  }

  /// The channel of `key`, unretained, or `nil` if none was inserted.
  func channel(for key: ObjectIdentifier) -> Unmanaged<Channel>? {
    let bits = UInt(bitPattern: Int(bitPattern: key))
    let table = current.load(ordering: .acquiring)
    return Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: table).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { table in
        let channel = table.channelBits(for: bits)
        guard channel != 0 else { return nil }
        return Unmanaged<Channel>.fromOpaque(
          UnsafeRawPointer(bitPattern: channel).unsafelyUnwrapped)
      }
  }

  /// The channel of `key` and the shared route its last such registration took, unretained,
  /// each `nil` if there is none: valid while the broadcaster lives.
  func channelAndRoute(for key: ObjectIdentifier)
    -> (channel: Unmanaged<Channel>, route: Unmanaged<ObserverRoute>?)?
  {
    let bits = UInt(bitPattern: Int(bitPattern: key))
    let table = current.load(ordering: .acquiring)
    return Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: table).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { table in
        let (channel, route) = table.bits(for: bits)
        guard channel != 0 else { return nil }
        return (
          Unmanaged<Channel>.fromOpaque(UnsafeRawPointer(bitPattern: channel).unsafelyUnwrapped),
          UnsafeRawPointer(bitPattern: route).map { Unmanaged<ObserverRoute>.fromOpaque($0) }
        )
      }
  }

  /// The shared route of the channel of `key` whose observer has the type of `observer`'s
  /// (``UnretainedObserver/hasSameType(as:)``), made by `make` if none is kept and fewer than
  /// ``sharedRouteLimit`` are; `nil` past the limit. It becomes the slot's route, which the next
  /// registration of the channel finds without the lock. Call it once `key` has a channel.
  func sharedRoute(
    for key: ObjectIdentifier, matching observer: UnretainedObserver,
    make: () -> ObserverRoute
  ) -> ObserverRoute? {
    let bits = UInt(bitPattern: Int(bitPattern: key))
    return tables.withLock { state -> ObserverRoute? in
      var route = state.routes.first {
        $0.key == bits && $0.route.observer.hasSameType(as: observer)
      }?.route
      if route == nil, state.routes.count < Self.sharedRouteLimit {
        let made = make()
        state.routes.append((bits, made))
        route = made
      }
      guard let route else { return nil }
      let table = state.tables[state.tables.count - 1]
      table.slot(for: bits).route.store(
        UInt(bitPattern: Unmanaged.passUnretained(route).toOpaque()), ordering: .releasing)
      return route
    }
  }

  /// Adds `channel` under `key`. Call it under `Broadcaster.channels`' lock, once per key, with
  /// every channel in `all`.
  func insert(_ channel: Channel, for key: ObjectIdentifier, all: [ObjectIdentifier: Channel]) {
    tables.withLock { state in
      var table = state.tables[state.tables.count - 1]
      if (count.load(ordering: .relaxed) + 1) * 2 > table.slots.count {
        // Grow: a new table with every channel (`all` includes the new one), and the shared
        // route each slot held.
        let old = table
        table = Table(capacity: table.slots.count * 2)
        for (key, channel) in all {
          Self.fill(table, key: key, channel: channel)
          let bits = UInt(bitPattern: Int(bitPattern: key))
          table.slot(for: bits).route.store(
            old.bits(for: bits).route, ordering: .releasing)
        }
        state.tables.append(table)
        current.store(
          UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()), ordering: .releasing)
        count.store(all.count, ordering: .relaxed)
      } else {
        Self.fill(table, key: key, channel: channel)
        count.add(1, ordering: .relaxed)
      }
    }
  }

  private static func fill(_ table: Table, key: ObjectIdentifier, channel: Channel) {
    let bits = UInt(bitPattern: Int(bitPattern: key))
    let slot = table.slot(for: bits)
    slot.channel.store(
      UInt(bitPattern: Unmanaged.passUnretained(channel).toOpaque()), ordering: .releasing)
    slot.key.store(bits, ordering: .releasing)
  }
}
