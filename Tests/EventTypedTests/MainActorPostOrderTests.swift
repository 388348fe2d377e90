import EventTestSupport
import EventTyped
import Foundation
import Testing

@Suite("Main-actor post order")
struct MainActorPostOrderTests {
  @MainActor
  @Test("a main-actor post queues every later main-actor handler behind one with a delivery queued")
  func laterHandlersQueueBehind() async {
    let event = Event<Int>()
    var log: [String] = []
    let first = event.subscribe { value in log.append("H1:\(value)") }
    #expect(onOtherThread { event.post(1) })
    let second = event.subscribe { value in log.append("H2:\(value)") }
    event.post(2)
    await drainMainQueue()
    #expect(log == ["H1:1", "H1:2", "H2:2"])
    withExtendedLifetime((first, second)) {}
  }

}
