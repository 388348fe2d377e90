import Dispatch
import EventTestSupport
import Foundation
import Testing

@testable import EventConditions

/// `verified(after:)` racing the arrivals its work starts. Each round is bounded, so a lost
/// completion fails the test instead of hanging it.
@Suite("NotificationReceiver.verified(after:) Stress")
struct VerifiedAfterStressTests {
  static let rounds = 200
  static let names = ["profile", "friends", "messages"]

  @Test("arrivals made inside work are never lost, over 200 rounds")
  func arrivalsInsideWork() async throws {
    let receiver = requestsReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    for round in 0..<Self.rounds {
      let returned = await finishes {
        await receiver.verified {
          receiver.check("profile")
          // Half the rounds have a failed request, ignored instead of checked.
          if round.isMultiple(of: 2) {
            receiver.check("friends")
          } else {
            receiver.ignore("friends")
          }
          receiver.check("messages")
        }
      }
      try #require(returned, "round \(round) never returned")
    }
    #expect(completions.count == Self.rounds)
    #expect(receiver.waiterCount == 0)
    withExtendedLifetime(token) {}
  }

  @Test("arrivals from other threads that work starts are never lost, over 200 rounds")
  @MainActor
  func arrivalsFromOtherThreads() async throws {
    let receiver = requestsReceiver()
    for round in 0..<Self.rounds {
      let returned = await finishes { @MainActor in
        await receiver.verified {
          if round.isMultiple(of: 2) {
            // Every arrival is made, on pool threads, before the task can suspend.
            DispatchQueue.concurrentPerform(iterations: Self.names.count) {
              receiver.check(Self.names[$0])
            }
          } else {
            // The arrivals race the suspension.
            for name in Self.names {
              Thread.detachNewThread { receiver.check(name) }
            }
          }
        }
      }
      try #require(returned, "round \(round) never returned")
    }
    #expect(receiver.waiterCount == 0)
  }
}
