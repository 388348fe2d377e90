import EventTestSupport
import Testing

@testable import EventCore

/// A registration of `label` at `priority` that records its label.
private func subscribe(
  _ list: ObserverList<Int>, _ label: String, priority: Int, into log: Recorder<String>
) -> Subscription {
  let entry = ObserverEntry<Int>(delivery: .synchronous) { _ in log.record(label) }
  entry.priority = priority
  return list.subscribe(entry, endsWithToken: true)
}

@Suite("ObserverList priorities")
struct ObserverListPriorityTests {
  @Test("higher priorities run first, equal ones in registration order")
  func priorityOrder() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let tokens = [
      subscribe(list, "a0", priority: 0, into: log),
      subscribe(list, "b10", priority: 10, into: log),
      subscribe(list, "c0", priority: 0, into: log),
      subscribe(list, "d-5", priority: -5, into: log),
      subscribe(list, "e10", priority: 10, into: log),
      subscribe(list, "f5", priority: 5, into: log),
    ]
    list.post(1)
    #expect(log.values == ["b10", "e10", "f5", "a0", "c0", "d-5"])
    withExtendedLifetime(tokens) {}
  }

  @Test("a priority placed before the end while a post holds the list waits for the next post")
  func priorityInsertDuringPost() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let late = Recorder<Subscription>()
    let first = ObserverEntry<Int>(delivery: .synchronous) { value in
      log.record("first:\(value)")
      if value == 1 { late.record(subscribe(list, "high", priority: 100, into: log)) }
    }
    let token = list.subscribe(first, endsWithToken: true)
    let tail = subscribe(list, "tail", priority: 0, into: log)
    list.post(1)
    #expect(log.values == ["first:1", "tail"])
    list.post(2)
    #expect(log.values == ["first:1", "tail", "high", "first:2", "tail"])
    withExtendedLifetime((token, tail, late.values)) {}
  }

  @Test("cleared slots at the end do not move a lower priority ahead of live entries")
  func clearedSlotsKeepOrder() {
    let list = ObserverList<Int>()
    let log = Recorder<String>()
    let high = subscribe(list, "high", priority: 10, into: log)
    let gone = (0..<5).map { subscribe(list, "gone\($0)", priority: 10, into: log) }
    for token in gone { token.cancel() }
    let low = subscribe(list, "low", priority: 0, into: log)
    let high2 = subscribe(list, "high2", priority: 10, into: log)
    list.post(1)
    #expect(log.values == ["high", "high2", "low"])
    withExtendedLifetime((high, low, high2)) {}
  }
}
