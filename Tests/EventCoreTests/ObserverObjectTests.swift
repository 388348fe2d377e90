import EventCore
import Foundation
import Testing

private struct Point { var x = 0 }
private final class Plain {}
private class Base {}
private final class Derived: Base {}
private actor Store {}

@Suite("ObserverObject")
struct ObserverObjectTests {
  @Test("a value converted to AnyObject is recognised as the box it becomes")
  func boxedValueIsRecognised() {
    #expect(ObserverObject.isBoxedValue(Point() as AnyObject))
    #expect(ObserverObject.isBoxedValue((1, "a") as AnyObject))
  }

  @Test("real class instances are never refused, whatever their static type")
  func classInstancesPass() {
    let objects: [AnyObject] = [Plain(), Derived(), Store(), NSObject(), Base()]
    for object in objects {
      #expect(!ObserverObject.isBoxedValue(object))
      ObserverObject.refuseBoxedValue(object, in: "test")  // returns: nothing to refuse
    }
  }
}
