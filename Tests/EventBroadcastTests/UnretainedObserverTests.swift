import EventBroadcast
import EventCore
import EventTestSupport
import Testing

/// A protocol whose existential is an opaque container (the class reference sits in its inline
/// buffer, next to metadata and a witness table).
private protocol Ping {
  func ping()
}

/// A protocol whose existential is a class reference and a witness table.
private protocol ClassPing: AnyObject {
  func ping()
}

/// A second protocol, for compositions (two witness tables).
private protocol Pong {
  func pong()
}

/// More protocols, for compositions too large to be kept inline (over five words).
private protocol Third {}
private protocol Fourth {}
private protocol Fifth {}

/// `@unchecked Sendable`: its one property is a `Counter`, itself `Sendable`; the class is not
/// final (the superclass layouts are the point), so Swift cannot check it.
private class Base: @unchecked Sendable {
  let calls = Counter()
}

private final class Pinger: Base, Ping, ClassPing, Pong, Third, Fourth, Fifth,
  @unchecked Sendable
{
  func ping() {
    calls.increment()
  }

  func pong() {
    calls.increment()
  }
}

/// The broadcaster hands each observer back as the `P` it was registered as, rebuilt from a copy
/// that does not retain it: these tests cover every memory layout a `P` holding a class can have,
/// and that the copy neither keeps the observer alive nor releases it too often.
@Suite("Broadcaster observer representations")
struct UnretainedObserverTests {
  let hub = Broadcaster()

  /// Registers a fresh `Pinger` as `P`, notifies 100 times, checks that `body` got that very
  /// object each time, then releases it and checks that it is gone and no longer called.
  private func roundTrip<P>(_ type: P.Type, as convert: (Pinger) -> P) {
    let seen = Counter()
    weak var weakObserver: Pinger?
    do {
      let observer = Pinger()
      weakObserver = observer
      hub.register(type, observer: convert(observer))
      for _ in 0..<100 {
        hub.notify(type) { received in
          if (received as AnyObject) === observer { seen.increment() }
        }
      }
      #expect(hub.observerCount(type) == 1)
    }
    #expect(weakObserver == nil)
    #expect(seen.count == 100)
    hub.notify(type) { _ in seen.increment() }
    #expect(seen.count == 100)
    #expect(hub.observerCount(type) == 0)
  }

  @Test("a protocol existential observer is handed back as itself and stays weak")
  func opaqueExistential() {
    roundTrip((any Ping).self) { $0 }
  }

  @Test("a class-bound protocol existential observer is handed back as itself and stays weak")
  func classExistential() {
    roundTrip((any ClassPing).self) { $0 }
  }

  @Test("a protocol composition observer is handed back as itself and stays weak")
  func composition() {
    roundTrip((any Ping & Pong).self) { $0 }
  }

  @Test("a class-bound composition observer is handed back as itself and stays weak")
  func classComposition() {
    roundTrip((any ClassPing & Pong).self) { $0 }
  }

  @Test("a composition too large to keep inline is handed back as itself and stays weak")
  func largeComposition() {
    roundTrip((any Ping & Pong & Third & Fourth).self) { $0 }
  }

  @Test("a large class-bound composition is handed back as itself and stays weak")
  func largeClassComposition() {
    roundTrip((any ClassPing & Pong & Third & Fourth & Fifth).self) { $0 }
  }

  @Test("a superclass-constrained existential observer is handed back as itself and stays weak")
  func superclassExistential() {
    roundTrip((any Base & Pong).self) { $0 }
  }

  @Test("a concrete class observer is handed back as itself and stays weak")
  func concreteClass() {
    roundTrip(Pinger.self) { $0 }
  }

  @Test("a superclass observer is handed back as itself and stays weak")
  func superclass() {
    roundTrip(Base.self) { $0 }
  }

  @Test("an AnyObject observer is handed back as itself and stays weak")
  func anyObject() {
    roundTrip(AnyObject.self) { $0 }
  }

  @Test("an Any observer holding a class instance is handed back as itself and stays weak")
  func any() {
    roundTrip(Any.self) { $0 }
  }

  @Test("the observer handed to body calls through the protocol's witnesses")
  func callsThroughWitnesses() {
    let observer = Pinger()
    hub.register((any Ping & Pong).self, observer: observer)

    hub.notify((any Ping & Pong).self) {
      $0.ping()
      $0.pong()
    }

    #expect(observer.calls.count == 2)
  }

  @Test("an observer kept by body outlives its release by the registrant, and only then goes")
  func bodyMayKeepTheObserver() {
    let kept = Lock<(any Ping)?>(nil)
    weak var weakObserver: Pinger?
    do {
      let observer = Pinger()
      weakObserver = observer
      hub.register((any Ping).self, observer: observer)
      hub.notify((any Ping).self) { observer in kept.withLock { $0 = observer } }
    }

    #expect(weakObserver != nil)
    kept.withLock { $0?.ping() }
    #expect(weakObserver?.calls.count == 1)
    kept.withLock { $0 = nil }
    #expect(weakObserver == nil)
  }

  @Test("re-registering an observer many times neither retains nor over-releases it")
  func reRegistering() {
    weak var weakObserver: Pinger?
    let calls = Counter()
    do {
      let observer = Pinger()
      weakObserver = observer
      for _ in 0..<100 {
        hub.register((any Ping).self, observer: observer)
        hub.notify((any Ping).self) { _ in calls.increment() }
      }
    }

    #expect(weakObserver == nil)
    #expect(calls.count == 100)
    #expect(hub.observerCount((any Ping).self) == 0)
  }

  @Test("an observer the body keeps stays alive as long as it is kept, and no longer")
  func keptObserverIsRetained() {
    weak var weakObserver: Pinger?
    let kept = Lock<[any Ping]>([])
    do {
      let observer = Pinger()
      weakObserver = observer
      hub.register((any Ping).self, observer: observer)
      for _ in 0..<3 {
        hub.notify((any Ping).self) { observer in kept.withLock { $0.append(observer) } }
      }
    }
    #expect(weakObserver != nil)
    #expect(kept.withLock { $0.count } == 3)
    kept.withLock { kept in for observer in kept { observer.ping() } }
    #expect(weakObserver?.calls.count == 3)
    kept.withLock { $0.removeAll() }
    #expect(weakObserver == nil)
  }
}
