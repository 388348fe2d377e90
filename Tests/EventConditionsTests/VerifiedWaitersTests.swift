import Testing

@testable import EventConditions

@Suite("VerifiedWaiters")
struct VerifiedWaitersTests {
  @Test("a completion resumes every waiting continuation once and forgets it")
  func completion() {
    var waiters = VerifiedWaiters<Int>()
    let first = waiters.register()
    let second = waiters.register()
    #expect(waiters.store(1, for: first) == nil)
    #expect(waiters.store(2, for: second) == nil)
    #expect(waiters.complete().sorted() == [1, 2])
    #expect(waiters.count == 0)
    #expect(waiters.complete().isEmpty)
  }

  @Test("a cancelled waiter is resumed once and forgotten")
  func cancellation() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    #expect(waiters.store(1, for: id) == nil)
    #expect(waiters.cancel(id) == 1)
    #expect(waiters.cancel(id) == nil)
    #expect(waiters.complete().isEmpty)
    #expect(waiters.count == 0)
  }

  @Test("cancelled before its continuation arrives, a waiter resumes on arrival")
  func cancelBeforeStore() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    #expect(waiters.cancel(id) == nil)
    #expect(waiters.store(1, for: id) == 1)
    #expect(waiters.count == 0)
  }

  @Test("a completion between register and store resumes the waiter on arrival")
  func completionBeforeStore() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    #expect(waiters.complete().isEmpty)
    #expect(waiters.store(1, for: id) == 1)
    #expect(waiters.count == 0)
  }

  @Test("cancelling after the completion resumed a waiter does nothing")
  func cancelAfterCompletion() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    _ = waiters.store(1, for: id)
    #expect(waiters.complete() == [1])
    #expect(waiters.cancel(id) == nil)
    #expect(waiters.count == 0)
  }
}
