import Testing

@testable import EventCore

private final class Value {}

/// A reproducible generator (SplitMix64), so that a failure replays.
private struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// An object identity made of `bits`, as an address would give (aligned, never 0).
private func key(_ bits: UInt) -> ObjectIdentifier {
  unsafeBitCast(bits, to: ObjectIdentifier.self)
}

@Suite("ObserverKeys")
struct ObserverKeysTests {
  /// What the table holds for each key of `keys`, as a dictionary.
  private func contents(_ table: ObserverKeys, _ keys: [ObjectIdentifier]) -> [ObjectIdentifier:
    ObjectIdentifier]
  {
    var found: [ObjectIdentifier: ObjectIdentifier] = [:]
    for key in keys {
      if let entry = table.entry(for: key, as: Value.self) {
        found[key] = ObjectIdentifier(entry.takeUnretainedValue())
      }
    }
    return found
  }

  @Test(
    "random sets and removals find and return what a dictionary does, through growth and clusters"
  )
  func matchesADictionary() {
    var random = SplitMix(state: 42)
    let values = (0..<8).map { _ in Value() }
    // Few keys for many operations: small tables, full clusters, probes that wrap around.
    let keys = (0..<48).map { _ in key(UInt(random.next() >> 20) << 4 | 16) }
    var table = ObserverKeys()
    var model: [ObjectIdentifier: ObjectIdentifier] = [:]
    for step in 0..<20_000 {
      let key = keys.randomElement(using: &random)!
      let value = values.randomElement(using: &random)!
      switch random.next() % 4 {
      case 0, 1:
        // Returns the entry it replaced: an insert removes that one without a second probe.
        let replaced = table.set(value, for: key)
        #expect(replaced.map { ObjectIdentifier($0.takeUnretainedValue()) } == model[key])
        model[key] = ObjectIdentifier(value)
      case 2:
        // Removes only the entry given: another value under the key stays.
        table.remove(value, for: key)
        if model[key] == ObjectIdentifier(value) { model[key] = nil }
      default:
        // Removes whichever entry the key has, and returns it.
        let removed = table.removeEntry(for: key, as: Value.self)
        #expect(removed.map { ObjectIdentifier($0.takeUnretainedValue()) } == model[key])
        model[key] = nil
      }
      #expect(table.count == model.count, "step \(step)")
      if step % 97 == 0 || step > 19_900 {
        #expect(contents(table, keys) == model, "step \(step)")
      }
    }
    table.removeAll()
    #expect(table.count == 0)
    #expect(contents(table, keys).isEmpty)
  }

  @Test("a cluster that wraps around the end of the table keeps every key found, shared or not")
  func wrappingCluster() {
    // Four keys (a table of 8 slots holds 4) that all hash to the last slot: 7, 0, 1, 2.
    let probe = ObserverKeys.Table(capacity: 8)
    let keys = Array(
      (1..<100_000).lazy.map { key(UInt($0) << 4) }
        .filter { probe.home(of: ObserverKeys.bits(of: $0)) == 7 }.prefix(4))
    let values = keys.map { _ in Value() }
    for removed in 0..<4 {
      for shared in [false, true] {
        var table = ObserverKeys()
        for (key, value) in zip(keys, values) { table.set(value, for: key) }
        let original = table
        table.remove(values[removed], for: keys[removed])
        var expected: [ObjectIdentifier: ObjectIdentifier] = [:]
        for (index, (key, value)) in zip(keys, values).enumerated() where index != removed {
          expected[key] = ObjectIdentifier(value)
        }
        #expect(contents(table, keys) == expected, "removed \(removed)")
        if shared { #expect(contents(original, keys).count == 4) }
      }
    }
  }

  @Test("a copy keeps its entries when the original changes, and the other way round")
  func copiesAreIndependent() {
    let first = Value()
    let second = Value()
    var table = ObserverKeys()
    table.set(first, for: key(16))
    var copy = table
    copy.set(second, for: key(32))
    copy.remove(first, for: key(16))
    table.set(second, for: key(48))

    #expect(
      contents(table, [key(16), key(32), key(48)]) == [
        key(16): ObjectIdentifier(first), key(48): ObjectIdentifier(second),
      ])
    #expect(contents(copy, [key(16), key(32), key(48)]) == [key(32): ObjectIdentifier(second)])
  }
}
