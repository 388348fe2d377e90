import Events
import Testing

// Swift 5 mode is where `value as AnyObject` reaches `register` at all: Swift 6 refuses it at
// compile time, since the box is not `Sendable`.

private struct Point { var x = 0 }

@Suite("Swift 5 client: a value boxed as AnyObject")
struct BoxedValueObserverTests {
  @Test("register(_:handler:) stops the program with a message naming the mistake")
  func handlerFormRefusesABoxedValue() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let event = Event<Int>()
      event.register(Point() as AnyObject) { _, _ in }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Event.register: Point converted to AnyObject is not an observer"))
  }

  @Test("register(_:handler:) with a throwing closure refuses a boxed value too")
  func throwingFormRefusesABoxedValue() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      struct Refused: Error {}
      let event = Event<Int>()
      event.register(Point() as AnyObject) { _, _ in throw Refused() }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("only class instances can be observers"))
  }
}
