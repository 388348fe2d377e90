import Testing

@testable import EventConditions

@Suite("VerifiedWaiters")
struct VerifiedWaitersTests {
  @Test("a completion resumes every waiting continuation once and forgets it")
  func completion() {
    var waiters = VerifiedWaiters<Int>()
    let first = waiters.register()
    let second = waiters.register()
    #expect(waiters.store(1, for: first, isVerified: false) == nil)
    #expect(waiters.store(2, for: second, isVerified: false) == nil)
    #expect(waiters.complete().sorted() == [1, 2])
    #expect(waiters.count == 0)
    #expect(waiters.complete().isEmpty)
  }

  @Test("a cancelled waiter is resumed once and forgotten")
  func cancellation() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    #expect(waiters.store(1, for: id, isVerified: false) == nil)
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
    #expect(waiters.store(1, for: id, isVerified: false) == 1)
    #expect(waiters.count == 0)
  }

  @Test("a completion between register and store resumes the waiter on arrival")
  func completionBeforeStore() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    #expect(waiters.complete().isEmpty)
    #expect(waiters.store(1, for: id, isVerified: false) == 1)
    #expect(waiters.count == 0)
  }

  @Test("cancelling after the completion resumed a waiter does nothing")
  func cancelAfterCompletion() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    _ = waiters.store(1, for: id, isVerified: false)
    #expect(waiters.complete() == [1])
    #expect(waiters.cancel(id) == nil)
    #expect(waiters.count == 0)
  }

  @Test("a waiter stored while the set is verified resumes at once and is forgotten")
  func storeWhileVerified() {
    var waiters = VerifiedWaiters<Int>()
    let id = waiters.register()
    #expect(waiters.store(1, for: id, isVerified: true) == 1)
    #expect(waiters.count == 0)
    #expect(waiters.complete().isEmpty)
  }

  @Test("only waiters whose continuation is stored count as suspended")
  func suspendedCount() {
    var waiters = VerifiedWaiters<Int>()
    let stored = waiters.register()
    _ = waiters.register()
    #expect(waiters.suspendedCount == 0)
    _ = waiters.store(1, for: stored, isVerified: false)
    #expect(waiters.suspendedCount == 1)
    #expect(waiters.count == 2)
  }
}
