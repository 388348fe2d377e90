import EventTestSupport
import Foundation
import Testing

@testable import EventConditions

@Suite("NotificationReceiver.verified(timeout:after:) and async work")
struct NotificationReceiverWaitingTests {
  @Test("arrivals inside work complete the set before the timeout")
  func completesInsideWork() async throws {
    let receiver = requestsReceiver()
    try await receiver.verified(timeout: .seconds(10)) {
      for name in ["profile", "friends", "messages"] { receiver.check(name) }
    }
    #expect(receiver.waiterCount == 0)
  }

  @Test("a round that never completes throws EventTimeout and is left as it was")
  func timeoutLeavesTheRound() async {
    let receiver = requestsReceiver()
    await #expect(throws: EventTimeout(timeout: .milliseconds(30))) {
      try await receiver.verified(timeout: .milliseconds(30)) {
        receiver.check("profile")
        receiver.check("friends")
      }
    }
    #expect(receiver.remaining("profile") == 0, "arrivals already counted stay counted")
    #expect(receiver.remaining("friends") == 0)
    #expect(receiver.remaining("messages") == 1)
    #expect(receiver.waiterCount == 0, "the wait ended with the call")
    #expect(receiver.check("messages"), "the next arrival continues the round")
  }

  @Test("a latched, verified receiver returns at once")
  func latched() async throws {
    let receiver = requestsReceiver(repeats: false)
    for name in ["profile", "friends", "messages"] { receiver.check(name) }
    try await receiver.verified(timeout: .seconds(10))
  }

  @Test("a cancelled task throws CancellationError and leaves no wait behind")
  func cancellation() async throws {
    let receiver = requestsReceiver()
    let waiting = Task { try await receiver.verified(timeout: .seconds(60)) }
    try await waitUntil { receiver.suspendedWaiterCount == 1 }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(receiver.waiterCount == 0)
  }

  @Test("async work is awaited after the wait is registered")
  func asyncWork() async {
    let receiver = requestsReceiver()
    let client = Client(receiver)
    let returned = await finishes {
      await receiver.verified {
        await client.send("profile")
        await client.send("friends")
        await client.send("messages")
      }
    }
    #expect(returned)
    #expect(receiver.waiterCount == 0)
  }

  @Test("async work with a timeout throws EventTimeout when an answer is missing")
  func asyncWorkTimeout() async {
    let receiver = requestsReceiver()
    let client = Client(receiver)
    await #expect(throws: EventTimeout.self) {
      try await receiver.verified(timeout: .milliseconds(20)) {
        await client.send("profile")
      }
    }
    #expect(receiver.remaining("profile") == 0)
    #expect(receiver.waiterCount == 0)
  }

  @MainActor
  @Test("work runs on the caller's actor and may use its state")
  func workOnCallersActor() async throws {
    let receiver = requestsReceiver()
    var started: [String] = []
    try await receiver.verified(timeout: .seconds(10)) {
      MainActor.assertIsolated()
      for name in ["profile", "friends", "messages"] {
        started.append(name)
        receiver.check(name)
      }
    }
    #expect(started.count == 3)
  }
}

@Suite("NotificationReceiver.verified(timeout:) Stress")
struct VerifiedTimeoutStressTests {
  @Test("the completing arrival on another thread as the timeout passes: one outcome")
  func completionRacesTimeout() async {
    let receiver = requestsReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    var returned = 0
    var timedOut = 0
    for _ in 0..<300 {
      receiver.reset()
      do {
        try await receiver.verified(timeout: .microseconds(200)) {
          receiver.check("profile")
          receiver.check("friends")
          DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(200)) {
            receiver.check("messages")
          }
        }
        returned += 1
      } catch {
        #expect(error as? EventTimeout == EventTimeout(timeout: .microseconds(200)))
        timedOut += 1
      }
      #expect(receiver.waiterCount == 0)
    }
    #expect(returned + timedOut == 300)
    #expect(returned <= completions.count)
    withExtendedLifetime(token) {}
  }

  @Test("cancellation racing the completion: one outcome, no wait left behind")
  func cancellationRacesCompletion() async {
    let receiver = requestsReceiver()
    for _ in 0..<200 {
      receiver.reset()
      let waiting = Task {
        try await receiver.verified(timeout: .seconds(60)) {
          receiver.check("profile")
          receiver.check("friends")
        }
      }
      Thread.detachNewThread { receiver.check("messages") }
      waiting.cancel()
      switch await waiting.result {
      case .success: break
      case .failure(let error): #expect(error is CancellationError)
      }
      #expect(receiver.waiterCount == 0)
    }
  }
}

/// Sends requests whose answers arrive on other threads, as a network client's would.
private actor Client {
  let receiver: NotificationReceiver

  init(_ receiver: NotificationReceiver) {
    self.receiver = receiver
  }

  func send(_ name: String) {
    let receiver = receiver
    Thread.detachNewThread { receiver.check(name) }
  }
}
