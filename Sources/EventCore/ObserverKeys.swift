/// The keyed entries of an ``ObserverList`` by their observer's identity, unretained: the
/// table behind "one registration per observer".
///
/// Not a `Dictionary`: hashing an `ObjectIdentifier` runs SipHash through `Hasher`, several
/// times per insert and removal, and a deletion rehashes the rest of its cluster, so the cost of
/// a change depended on where the observer's address happened to land. Here a key is hashed by
/// one multiplication (Fibonacci hashing: object addresses are aligned, so their low bits carry
/// nothing, and the product's high bits mix in the rest), and a deletion moves back the entries
/// of its cluster without hashing anything twice.
///
/// The entries are not retained: the list's storage holds each registered entry, and an entry
/// is here only while it is registered (the list removes it here before its storage lets it go,
/// and drops the table with every entry in ``ObserverList/removeAll()``). So the table's changes
/// cost no retain or release of an entry, whose side table (its token's weak reference) makes
/// each of them slow.
///
/// Open addressing with linear probing, at most half full. Only the list's `state` lock reads or
/// writes it. A value type over a class: a copy shares the table until one of them changes it.
@usableFromInline package struct ObserverKeys {
  @usableFromInline final class Table {
    /// A power of two.
    @usableFromInline let capacity: Int
    /// `64 - log2(capacity)`: a hash's top bits index the slots.
    @usableFromInline let shift: UInt64
    /// `capacity` pairs of words: a key's bits (0 for an empty slot), then its entry's.
    @usableFromInline let slots: UnsafeMutablePointer<UInt>

    @usableFromInline init(capacity: Int) {
      self.capacity = capacity
      shift = UInt64(64 - capacity.trailingZeroBitCount)
      slots = .allocate(capacity: capacity * 2)
      slots.initialize(repeating: 0, count: capacity * 2)
    }

    deinit {
      slots.deallocate()
    }

    /// The slot of `key`, or of the empty slot where it would go: the table is never full.
    @inlinable func index(of key: UInt) -> Int {
      var index = home(of: key)
      while true {
        let found = slots[index * 2]
        if found == key || found == 0 { return index }
        index = (index + 1) & (capacity - 1)
      }
    }

    /// The slot `key` hashes to.
    @inlinable func home(of key: UInt) -> Int {
      // In 64 bits on every platform, as `UInt` has 32 on arm64_32.
      Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Empties slot `index`, then moves back each later entry of its cluster that may go there
    /// (its home is not after the gap, cyclically), so that every probe still finds its key.
    @inlinable func remove(at index: Int) {
      var gap = index
      var next = (index + 1) & (capacity - 1)
      while slots[next * 2] != 0 {
        let home = home(of: slots[next * 2])
        // Whether `home` lies cyclically in (gap, next]: the entry must stay after the gap.
        let staysAfterGap =
          gap <= next ? (gap < home && home <= next) : (gap < home || home <= next)
        if !staysAfterGap {
          slots[gap * 2] = slots[next * 2]
          slots[gap * 2 + 1] = slots[next * 2 + 1]
          gap = next
        }
        next = (next + 1) & (capacity - 1)
      }
      slots[gap * 2] = 0
      slots[gap * 2 + 1] = 0
    }

    /// A table of `capacity` slots with every entry of this one.
    @usableFromInline func copy(capacity: Int) -> Table {
      let copy = Table(capacity: capacity)
      for index in 0..<self.capacity where slots[index * 2] != 0 {
        let slot = copy.index(of: slots[index * 2])
        copy.slots[slot * 2] = slots[index * 2]
        copy.slots[slot * 2 + 1] = slots[index * 2 + 1]
      }
      return copy
    }
  }

  /// `nil` until the first keyed entry: most lists have none.
  @usableFromInline var table: Table?
  /// The number of keyed entries.
  @usableFromInline var count: Int

  @inlinable init() {
    table = nil
    count = 0
  }

  /// The entry registered under `key`, unretained, if any.
  @inlinable func entry<Entry: AnyObject>(for key: ObjectIdentifier, as _: Entry.Type)
    -> Unmanaged<Entry>?
  {
    guard let table else { return nil }
    let bits = Self.bits(of: key)
    let value = table.slots[table.index(of: bits) * 2 + 1]
    guard value != 0 else { return nil }
    return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: value).unsafelyUnwrapped)
  }

  /// Registers `entry` under `key`, in place of the entry there, if any.
  ///
  /// - Returns: The entry replaced, unretained; `nil` if `key` had none. One probe serves both,
  ///   so an insert need not look its observer up first.
  @inlinable @discardableResult
  mutating func set<Entry: AnyObject>(_ entry: Entry, for key: ObjectIdentifier)
    -> Unmanaged<Entry>?
  {
    let bits = Self.bits(of: key)
    let value = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
    let previous = uniqueTable(reserving: 1)._withUnsafeGuaranteedRef { table in
      let index = table.index(of: bits)
      let previous = table.slots[index * 2 + 1]
      table.slots[index * 2] = bits
      table.slots[index * 2 + 1] = value
      return previous
    }
    guard previous != 0 else {
      count += 1
      return nil
    }
    return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: previous).unsafelyUnwrapped)
  }

  /// Removes the entry under `key`, whichever it is, in one probe.
  ///
  /// - Returns: The entry removed, unretained; `nil` if `key` had none.
  @inlinable
  mutating func removeEntry<Entry: AnyObject>(
    for key: ObjectIdentifier, as _: Entry.Type
  ) -> Unmanaged<Entry>? {
    guard table != nil else { return nil }
    let removed = uniqueTable(reserving: 0)._withUnsafeGuaranteedRef { table in
      let index = table.index(of: Self.bits(of: key))
      let value = table.slots[index * 2 + 1]
      if value != 0 { table.remove(at: index) }
      return value
    }
    guard removed != 0 else { return nil }
    count -= 1
    return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: removed).unsafelyUnwrapped)
  }

  /// Removes the entry under `key` if it is `entry`: a newer registration of the same observer
  /// may have taken its place.
  @inlinable mutating func remove(_ entry: AnyObject, for key: ObjectIdentifier) {
    guard table != nil else { return }
    let value = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
    let removed = uniqueTable(reserving: 0)._withUnsafeGuaranteedRef { table in
      let index = table.index(of: Self.bits(of: key))
      guard table.slots[index * 2 + 1] == value else { return false }
      table.remove(at: index)
      return true
    }
    if removed { count -= 1 }
  }

  /// Removes every entry.
  @inlinable mutating func removeAll() {
    table = nil
    count = 0
  }

  /// The table, this value's own, with room for `more` entries at most half full; unretained,
  /// since this value holds it until its next change (a retain and a release per change
  /// otherwise).
  @inlinable @inline(__always)
  mutating func uniqueTable(reserving more: Int) -> Unmanaged<Table> {
    // Checked before `table` is bound to a local, which would count as a second reference.
    if isKnownUniquelyReferenced(&table), let current = table.map(Unmanaged.passUnretained),
      (count + more) * 2 <= current._withUnsafeGuaranteedRef({ $0.capacity })
    {
      return current
    }
    return .passUnretained(replaceTable(reserving: more))
  }

  /// ``uniqueTable(reserving:)`` when the table is missing, shared or too full: a new one.
  @inlinable @inline(never)
  mutating func replaceTable(reserving more: Int) -> Table {
    guard let current = table else {
      let made = Table(capacity: 8)
      table = made
      return made
    }
    let grows = (count + more) * 2 > current.capacity
    let copy = current.copy(capacity: grows ? current.capacity * 2 : current.capacity)
    table = copy
    return copy
  }

  @inlinable static func bits(of key: ObjectIdentifier) -> UInt {
    UInt(bitPattern: Int(bitPattern: key))
  }
}
