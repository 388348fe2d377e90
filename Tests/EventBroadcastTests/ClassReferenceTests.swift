import Testing

@testable import EventBroadcast

private protocol Opaque {}
private protocol ClassBound: AnyObject {}
private protocol Other {}
private class Base: @unchecked Sendable {}
/// A protocol constrained to a superclass: class-bound without saying `AnyObject`.
private protocol SubclassOnly: Base {}
private protocol Service: Actor {}

private final class Instance: Base, Opaque, ClassBound, Other, SubclassOnly, Error,
  @unchecked Sendable
{}
private final class Generic<Element>: Opaque {}
private actor Worker: Service {}
private struct Value: Opaque {}
private enum Choice: Opaque { case one }

/// `ClassReference` reads type metadata instead of casting: these tests fail if its reading of
/// the ABI breaks, for every kind of type an observer can be registered as.
@Suite("Broadcaster class references from type metadata")
struct ClassReferenceTests {
  /// Checks that `T` is read as leading with a reference exactly when `expected`, and that the
  /// broadcaster's object of `value` is the one the casts find.
  private func check<T>(_ value: T, as _: T.Type, leads expected: Bool) {
    #expect(ClassReference.leads(T.self) == expected, "\(T.self)")
    #expect((object(value) != nil) == expected, "\(T.self)")
    var read: AnyObject?
    let isObject = Broadcaster.withObject(value) { read = $1 }
    let cast = Broadcaster.castObject(value)
    #expect(read === cast, "\(T.self)")
    #expect(isObject == (cast != nil), "\(T.self)")
  }

  @Test("classes and class-bound existentials are read in place")
  func classBound() {
    let instance = Instance()
    check(instance, as: Instance.self, leads: true)
    check(instance, as: Base.self, leads: true)
    check(Generic<Int>(), as: Generic<Int>.self, leads: true)
    check(instance, as: AnyObject.self, leads: true)
    check(instance, as: (any ClassBound).self, leads: true)
    check(instance, as: (any Opaque & AnyObject).self, leads: true)
    check(instance, as: (any ClassBound & Other).self, leads: true)
    check(instance, as: (any SubclassOnly).self, leads: true)
    check(instance, as: (any Base & Other).self, leads: true)
    check(instance, as: (any AnyObject & Sendable).self, leads: true)
    check(Worker(), as: (any Service).self, leads: true)
    check(Worker(), as: (any Actor).self, leads: true)
  }

  @Test("a value converted to AnyObject is read as the box the casts find")
  func boxedValue() {
    check(Value() as AnyObject, as: AnyObject.self, leads: true)
  }

  @Test("other existentials holding a class instance are left to the casts")
  func otherExistentials() {
    let instance = Instance()
    check(instance, as: (any Opaque).self, leads: false)
    check(instance, as: (any Opaque & Other).self, leads: false)
    check(instance, as: (any Error).self, leads: false)
    check(instance, as: Any.self, leads: false)
    check(instance, as: (any Sendable).self, leads: false)
    check(instance as AnyObject, as: Any.self, leads: false)
  }

  @Test("values are never read as references")
  func values() {
    check(Value(), as: Value.self, leads: false)
    check(Value(), as: (any Opaque).self, leads: false)
    check(Choice.one, as: Choice.self, leads: false)
    check(1, as: Int.self, leads: false)
    check((1, Instance()), as: (Int, Instance).self, leads: false)
    check(Instance?.some(Instance()), as: Instance?.self, leads: false)
    check(Instance.self, as: Instance.Type.self, leads: false)
    check({}, as: (() -> Void).self, leads: false)
  }

  @Test("the reference is read without a retain, and a copy of it releases what it retains")
  func balancedRetain() {
    weak var weakInstance: Instance?
    do {
      let instance = Instance()
      weakInstance = instance
      let existential: any ClassBound = instance
      for _ in 0..<10 { _ = object(existential)?.takeUnretainedValue() }
      #expect(object(existential)?.takeUnretainedValue() === instance)
    }
    #expect(weakInstance == nil)
  }
}

/// The instance `value` refers to when its type ``ClassReference/leads(_:)``, read as
/// `Broadcaster.withObject` reads it; `nil` otherwise. Unretained: `value` keeps it alive.
private func object<T>(_ value: T) -> Unmanaged<AnyObject>? {
  guard ClassReference.leads(T.self) else { return nil }
  return withUnsafePointer(to: value) { ClassReference.object(at: $0) }
}
