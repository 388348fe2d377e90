import EventTestSupport
import Testing

@testable import EventCore

/// An entry's reference to its observer: it never keeps the observer alive, hands it out only
/// while it lives, and (outside Apple platforms, where it is an unowned address rather than a
/// weak reference) gives it no side table. `UnownedReferenceTests` races its loads against the
/// observer's last release.
@Suite("Observer references")
struct ObserverReferenceTests {
  static func entry(observing observer: AnyObject) -> ObserverEntry<Int> {
    ObserverEntry<Int>(
      observer: observer, keyed: true, delivery: .synchronous, isolation: nil,
      attachment: Tracked("attachment"))
  }

  @Test("an entry hands out its observer while it lives and nothing once it is deinitialized")
  func loadsOnlyALiveObserver() {
    let deinits = Counter()
    var observer: Tracked? = Tracked { deinits.increment() }
    let entry = Self.entry(observing: observer!)
    #expect(entry.observer === observer)
    observer = nil
    #expect(deinits.count == 1)
    #expect(entry.observer == nil)
    #expect(entry.observer == nil)
  }

  #if !canImport(ObjectiveC) && _pointerBitWidth(_64)
    /// Whether the object's reference counts have moved to a side table: the 64-bit header's
    /// top two bits (`UseSlowRC` and the side-table mark) are both set then.
    private static func hasSideTable(_ object: AnyObject) -> Bool {
      withExtendedLifetime(object) {
        let header = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return header.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt64.self) >> 62 == 3
      }
    }

    @Test("registering an observer gives it no side table, so its retains stay fast")
    func noSideTable() {
      let observer = Tracked()
      let entry = Self.entry(observing: observer)
      #expect(entry.observer === observer)
      #expect(!Self.hasSideTable(observer))
      // The check itself: a weak reference does give an object a side table.
      let control = Tracked("control")
      let watch = Weak(control)
      #expect(watch.object === control)
      #expect(Self.hasSideTable(control))
    }
  #endif
}
