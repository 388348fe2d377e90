import EventTestSupport
import Foundation
import Synchronization
import Testing

@testable import EventConditions

/// The request scenario of the original's demo: three requests, any order, then act.
func requestsReceiver(repeats: Bool = true) -> NotificationReceiver {
  let receiver = NotificationReceiver(repeats: repeats)
  receiver.add(NotificationConditioner("profile"))
  receiver.add(NotificationConditioner("friends"))
  receiver.add(NotificationConditioner("messages"))
  return receiver
}

@Suite("NotificationReceiver")
struct NotificationReceiverTests {
  @Test("three requests completing in sequence verify the set once, on the last")
  func sequence() {
    let receiver = requestsReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    #expect(receiver.check("profile") == false)
    #expect(receiver.check("friends") == false)
    #expect(completions.count == 0)
    #expect(receiver.check("messages") == true)
    #expect(completions.count == 1)
    token.cancel()
  }

  @Test("requests completing concurrently in random order verify once per round")
  func concurrentRounds() {
    let receiver = requestsReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    let names = ["profile", "friends", "messages"]
    for round in 1...200 {
      let group = DispatchGroup()
      for name in names.shuffled() {
        group.onNewThread { receiver.check(name) }
      }
      #expect(group.wait(timeout: .now() + 10) == .success)
      #expect(completions.count == round)
    }
    token.cancel()
  }

  @Test("three requests failing through ignore still complete the round")
  func allFailing() {
    let receiver = requestsReceiver()
    let ignored = Recorder<String>()
    let completions = Counter()
    let tokens = [
      receiver.onIgnored { ignored.record($0) },
      receiver.onVerified { completions.increment() },
    ]
    receiver.ignore("profile")
    receiver.ignore("friends")
    #expect(completions.count == 0)
    receiver.ignore("messages")
    #expect(ignored.values == ["profile", "friends", "messages"])
    #expect(completions.count == 1)
    #expect(!receiver.isVerified)
    _ = tokens
  }

  @Test("mixed success and failure completes the round, ignored handlers first")
  func mixed() {
    let receiver = requestsReceiver()
    let events = Recorder<String>()
    let tokens = [
      receiver.onIgnored { events.record("ignored \($0)") },
      receiver.onVerified { events.record("verified") },
    ]
    receiver.check("profile")
    receiver.check("messages")
    receiver.ignore("friends")
    #expect(events.values == ["ignored friends", "verified"])
    _ = tokens
  }

  @Test("a conditioner with minCount 3 needs three arrivals")
  func minCountThree() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("messages", minCount: 3))
    #expect(receiver.remaining("messages") == 3)
    #expect(!receiver.check("messages"))
    #expect(receiver.remaining("messages") == 2)
    #expect(!receiver.check("messages"))
    #expect(receiver.remaining("messages") == 1)
    #expect(receiver.check("messages"))
    #expect(receiver.remaining("messages") == 3)
  }

  @Test("repeating: the completing arrival fires once and re-arms, surplus is not carried")
  func repeating() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    receiver.add(NotificationConditioner("b"))
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    receiver.check("a")
    receiver.check("a")
    receiver.check("a")
    #expect(receiver.check("b"))
    #expect(completions.count == 1)
    #expect(!receiver.check("b"))
    #expect(receiver.remaining("a") == 1)
    #expect(completions.count == 1)
    #expect(receiver.check("a"))
    #expect(completions.count == 2)
    token.cancel()
  }

  @Test("latched: check stays true until reset, and onVerified fires once per completion")
  func latched() {
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(NotificationConditioner("a"))
    receiver.add(NotificationConditioner("b"))
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    #expect(!receiver.check("a"))
    #expect(receiver.check("b"))
    #expect(receiver.check("a"))
    #expect(receiver.check("unknown"))
    #expect(receiver.isVerified)
    #expect(completions.count == 1)
    receiver.reset()
    #expect(!receiver.isVerified)
    #expect(!receiver.check("a"))
    #expect(receiver.check("b"))
    #expect(completions.count == 2)
    token.cancel()
  }

  @Test("reset mid-round discards the arrivals of the round")
  func resetMidRound() {
    let receiver = requestsReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    receiver.check("profile")
    receiver.check("friends")
    receiver.reset()
    #expect(!receiver.check("messages"))
    #expect(receiver.remaining("profile") == 1)
    #expect(receiver.remaining("friends") == 1)
    #expect(completions.count == 0)
    receiver.check("profile")
    #expect(receiver.check("friends"))
    #expect(completions.count == 1)
    token.cancel()
  }

  @Test("disabled: arrivals and ignores are dropped and nothing fires")
  func disabled() {
    let receiver = requestsReceiver()
    let fired = Counter()
    let tokens = [
      receiver.onVerified { fired.increment() },
      receiver.onIgnored { _ in fired.increment() },
    ]
    receiver.check("profile")
    receiver.isEnabled = false
    #expect(!receiver.isEnabled)
    #expect(!receiver.check("friends"))
    receiver.ignore("messages")
    var verified: Bool?
    receiver.check("messages") { verified = $0 }
    #expect(verified == false)
    #expect(receiver.remaining("friends") == 1)
    #expect(receiver.remaining("messages") == 1)
    #expect(fired.count == 0)
    receiver.isEnabled = true
    receiver.check("friends")
    #expect(receiver.check("messages"))
    #expect(fired.count == 1)
    _ = tokens
  }

  @Test("check(_:verify:) hands over what check returns, after onVerified ran")
  func verifyCallShape() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    receiver.add(NotificationConditioner("b"))
    let events = Recorder<String>()
    let token = receiver.onVerified { events.record("verified") }
    receiver.check("a") { events.record("verify \($0)") }
    receiver.check("b") { events.record("verify \($0)") }
    #expect(events.values == ["verify false", "verified", "verify true"])
    token.cancel()
  }

  @Test("isVerified is a pure query that never consumes or re-arms")
  func pureQuery() {
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(NotificationConditioner("a", minCount: 2))
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    for _ in 0..<5 { #expect(!receiver.isVerified) }
    #expect(receiver.remaining("a") == 2)
    receiver.check("a")
    #expect(receiver.check("a"))
    for _ in 0..<5 { #expect(receiver.isVerified) }
    #expect(completions.count == 1)
    token.cancel()
  }

  @Test("a repeating set reads unverified right after its completion re-armed it")
  func queryAfterRepeat() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    #expect(receiver.check("a"))
    #expect(!receiver.isVerified)
  }

  @Test("a name not in the set consumes nothing and is not an error")
  func unknownName() {
    let receiver = requestsReceiver()
    receiver.check("profile")
    #expect(!receiver.check("weather"))
    #expect(!receiver.contains("weather"))
    #expect(receiver.remaining("weather") == 0)
    #expect(receiver.remaining("profile") == 0)
    #expect(receiver.remaining("friends") == 1)
    receiver.ignore("weather")
    #expect(receiver.remaining("friends") == 1)
  }

  @Test("an empty receiver waits for nothing and never verifies")
  func emptySet() {
    let receiver = NotificationReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    #expect(!receiver.check("a"))
    #expect(!receiver.isVerified)
    #expect(completions.count == 0)
    token.cancel()
  }

  @Test("add, contains and remove manage the set by name")
  func membership() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    receiver.add(NotificationConditioner("b"))
    #expect(receiver.contains("a"))
    receiver.remove("a")
    #expect(!receiver.contains("a"))
    receiver.remove("a")
    #expect(receiver.check("b"))
    receiver.add(NotificationConditioner("a", minCount: 2))
    #expect(receiver.remaining("a") == 2)
  }

  @Test("removing the only unmet conditioner lets the next check complete the set")
  func removeCompletesOnNextCheck() {
    let receiver = requestsReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    receiver.check("profile")
    receiver.check("friends")
    receiver.remove("messages")
    #expect(completions.count == 0)
    #expect(receiver.isVerified)
    #expect(receiver.check("messages"))
    #expect(completions.count == 1)
    token.cancel()
  }

  @Test("ignoring a conditioner that is not ignorable does nothing")
  func notIgnorable() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("payment"), ignorable: false)
    let fired = Counter()
    let tokens = [
      receiver.onVerified { fired.increment() },
      receiver.onIgnored { _ in fired.increment() },
    ]
    receiver.ignore("payment")
    #expect(receiver.remaining("payment") == 1)
    #expect(!receiver.isVerified)
    #expect(fired.count == 0)
    _ = tokens
  }

  @Test("an ignored conditioner needs nothing for the rest of the round only")
  func ignoreLastsOneRound() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a", minCount: 2))
    receiver.add(NotificationConditioner("b"))
    receiver.ignore("a")
    #expect(receiver.remaining("a") == 0)
    #expect(receiver.check("b"))
    #expect(receiver.remaining("a") == 2)
  }

  @Test("a targeted ignore reaches one receiver, a broadcast every holder, by value")
  func broadcastAndTargetedIgnore() {
    // Broadcasts reach every receiver in the process, tests running in parallel included:
    // the name is unique to this test, and built at run time in two different ways.
    let unique = UUID().uuidString
    let conditionerName = "messages-\(unique)"
    let name = ["messages", unique].joined(separator: "-")
    func receiver(ignorable: Bool = true) -> NotificationReceiver {
      let receiver = NotificationReceiver()
      receiver.add(NotificationConditioner("profile"))
      receiver.add(NotificationConditioner(conditionerName), ignorable: ignorable)
      return receiver
    }
    let first = receiver()
    let second = receiver()
    let strict = receiver(ignorable: false)
    let unrelated = NotificationReceiver()
    unrelated.add(NotificationConditioner("weather-\(unique)"))
    let heard = Recorder<String>()
    let tokens = [
      first.onIgnored { heard.record("first \($0 == name)") },
      second.onIgnored { heard.record("second \($0 == name)") },
      unrelated.onIgnored { heard.record("unrelated \($0)") },
      strict.onIgnored { heard.record("strict \($0)") },
    ]

    NotificationReceiver.ignore(name, to: first)
    #expect(heard.values == ["first true"])
    #expect(first.remaining(conditionerName) == 0)
    #expect(second.remaining(conditionerName) == 1)

    NotificationReceiver.ignore(name)
    #expect(heard.values == ["first true", "first true", "second true"])
    #expect(second.remaining(conditionerName) == 0)
    #expect(strict.remaining(conditionerName) == 1)
    #expect(unrelated.remaining("weather-\(unique)") == 1)
    _ = tokens
  }

  @Test("a broadcast ignore can complete a receiver")
  func broadcastCompletes() {
    let receiver = NotificationReceiver()
    let unique = UUID().uuidString
    receiver.add(NotificationConditioner("completes-\(unique)"))
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    NotificationReceiver.ignore(["completes", unique].joined(separator: "-"))
    #expect(completions.count == 1)
    token.cancel()
  }

  @Test("the broadcast registry does not keep a receiver alive")
  func broadcastRegistryIsWeak() {
    let name = "weak-\(UUID())"
    weak var weakReceiver: NotificationReceiver?
    do {
      let receiver = NotificationReceiver()
      receiver.add(NotificationConditioner(name))
      weakReceiver = receiver
      NotificationReceiver.ignore(name)
    }
    #expect(weakReceiver == nil)
    NotificationReceiver.ignore(name)
  }

  @Test("a cancelled onVerified handler is not called again")
  func cancelledHandler() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    let kept = Counter()
    let dropped = Counter()
    let keptToken = receiver.onVerified { kept.increment() }
    let droppedToken = receiver.onVerified { dropped.increment() }
    receiver.check("a")
    droppedToken.cancel()
    receiver.check("a")
    #expect(kept.count == 2)
    #expect(dropped.count == 1)
    keptToken.cancel()
  }

  @Test("releasing the handler's token ends it")
  func releasedToken() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    let calls = Counter()
    _ = receiver.onVerified { calls.increment() }
    receiver.check("a")
    #expect(calls.count == 0)
  }

  @Test("onVerified handlers run in the order they were added")
  func handlerOrder() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    let order = Recorder<Int>()
    let tokens = (0..<5).map { index in receiver.onVerified { order.record(index) } }
    receiver.check("a")
    #expect(order.values == [0, 1, 2, 3, 4])
    _ = tokens
  }

  @Test("a handler may call back into its receiver without deadlock")
  func reentrancy() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    receiver.add(NotificationConditioner("b"))
    let nested = Recorder<Bool>()
    let box = Recorder<Subscription>()
    let token = receiver.onVerified {
      nested.record(receiver.isVerified)
      receiver.check("a")
      if nested.count == 1 {
        box.record(receiver.onIgnored { _ in nested.record(true) })
        receiver.ignore("b")
      }
    }
    receiver.check("a")
    receiver.check("b")
    #expect(nested.values == [false, true, false])
    #expect(receiver.remaining("a") == 0)
    token.cancel()
  }

  @Test("handlers do not keep the receiver alive, and the receiver releases them")
  func memory() {
    weak var weakReceiver: NotificationReceiver?
    weak var weakCaptured: Tracked?
    var token: Subscription?
    do {
      let receiver = NotificationReceiver()
      let captured = Tracked()
      weakReceiver = receiver
      weakCaptured = captured
      receiver.add(NotificationConditioner("a"))
      token = receiver.onVerified { [weak receiver] in _ = (receiver, captured) }
    }
    #expect(weakReceiver == nil)
    #expect(weakCaptured == nil)
    token?.cancel()
  }

  @Test("a cancelled handler's closure is released")
  func cancelReleasesClosure() {
    let receiver = NotificationReceiver()
    weak var weakCaptured: Tracked?
    let token: Subscription
    do {
      let captured = Tracked()
      weakCaptured = captured
      token = receiver.onIgnored { _ in _ = captured }
    }
    #expect(weakCaptured != nil)
    token.cancel()
    #expect(weakCaptured == nil)
  }

  @Test("turning repeats off latches, turning it on again re-arms")
  func toggleRepeats() {
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("a"))
    #expect(receiver.repeats)
    receiver.repeats = false
    #expect(!receiver.repeats)
    #expect(receiver.check("a"))
    #expect(receiver.check("a"))
    receiver.repeats = true
    #expect(!receiver.isVerified)
    #expect(receiver.check("a"))
    #expect(!receiver.isVerified)
  }

  @Test("verified() resumes at the next completion, not before")
  func verifiedAwaited() async throws {
    let receiver = requestsReceiver()
    receiver.check("profile")
    let resumed = Counter()
    let waiting = Task {
      await receiver.verified()
      resumed.increment()
    }
    try await waitUntil { receiver.waiterCount == 1 }
    receiver.check("friends")
    #expect(resumed.count == 0)
    receiver.check("messages")
    await waiting.value
    #expect(resumed.count == 1)
    #expect(receiver.waiterCount == 0)
  }

  @Test("every task waiting in verified() resumes at one completion")
  func verifiedManyWaiters() async throws {
    let receiver = requestsReceiver()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<20 { group.addTask { await receiver.verified() } }
      try await waitUntil { receiver.waiterCount == 20 }
      receiver.ignore("profile")
      receiver.ignore("friends")
      receiver.ignore("messages")
      try await group.waitForAll()
    }
    #expect(receiver.waiterCount == 0)
  }

  @Test("a task cancelled in verified() resumes without a completion")
  func verifiedCancelled() async throws {
    let receiver = requestsReceiver()
    let task = Task { await receiver.verified() }
    try await waitUntil { receiver.waiterCount == 1 }
    task.cancel()
    await task.value
    #expect(receiver.waiterCount == 0)
    #expect(receiver.remaining("profile") == 1)
  }

  @Test("verified() in an already cancelled task returns at once")
  func verifiedPreCancelled() async {
    let receiver = requestsReceiver()
    await withTaskGroup(of: Void.self) { group in
      group.cancelAll()
      group.addTask { await receiver.verified() }
      await group.waitForAll()
    }
    #expect(receiver.waiterCount == 0)
  }

  @Test("verified() returns at once from a latched receiver that is already verified")
  func verifiedLatched() async {
    let receiver = requestsReceiver(repeats: false)
    for name in ["profile", "friends", "messages"] { receiver.check(name) }
    #expect(await finishes { await receiver.verified() })
    #expect(receiver.waiterCount == 0)
  }

  @Test("verified() waits for the next round when a repeating set completed just before")
  func verifiedAfterRepeatingCompletion() async throws {
    let receiver = requestsReceiver()
    for name in ["profile", "friends", "messages"] { receiver.check(name) }
    let waiting = Task { await receiver.verified() }
    try await waitUntil { receiver.suspendedWaiterCount == 1 }
    for name in ["profile", "friends", "messages"] { receiver.check(name) }
    #expect(await finishes { await waiting.value })
  }

  @Test("verified(after:) returns at a completion made inside work")
  func verifiedAfterWork() async {
    let receiver = requestsReceiver()
    let completions = Counter()
    let token = receiver.onVerified { completions.increment() }
    let returned = await finishes {
      await receiver.verified {
        for name in ["profile", "friends", "messages"] { receiver.check(name) }
      }
    }
    #expect(returned)
    #expect(completions.count == 1)
    #expect(receiver.waiterCount == 0)
    withExtendedLifetime(token) {}
  }

  @Test("a round completed before verified(after:) registers does not count")
  func verifiedAfterEarlierRound() async throws {
    let receiver = requestsReceiver()
    for name in ["profile", "friends", "messages"] { receiver.check(name) }
    let returned = Counter()
    let waiting = Task {
      await receiver.verified(after: { receiver.check("profile") })
      returned.increment()
    }
    // Suspended with its continuation stored: the earlier round did not end the wait.
    try await waitUntil { receiver.suspendedWaiterCount == 1 }
    #expect(returned.count == 0)
    receiver.check("friends")
    receiver.check("messages")
    #expect(await finishes { await waiting.value })
    #expect(returned.count == 1)
  }

  @Test("verified(after:) returns once work has run when a latched receiver is verified")
  func verifiedAfterLatched() async {
    let receiver = requestsReceiver(repeats: false)
    for name in ["profile", "friends", "messages"] { receiver.check(name) }
    let workRuns = Counter()
    #expect(await finishes { await receiver.verified { workRuns.increment() } })
    #expect(workRuns.count == 1)
    #expect(receiver.waiterCount == 0)
  }

  @Test("verified(after:) on a latched receiver reset inside work waits for the new round")
  func verifiedAfterLatchedReset() async throws {
    let receiver = requestsReceiver(repeats: false)
    for name in ["profile", "friends", "messages"] { receiver.check(name) }
    let waiting = Task {
      await receiver.verified {
        receiver.reset()
        receiver.check("profile")
      }
    }
    try await waitUntil { receiver.suspendedWaiterCount == 1 }
    receiver.check("friends")
    receiver.check("messages")
    #expect(await finishes { await waiting.value })
    #expect(receiver.isVerified)
  }

  @Test("verified(after:) runs work once, on the caller's actor, with the caller's state")
  func verifiedAfterIsolation() async {
    let screen = ProfileScreen()
    #expect(await finishes { await screen.load() })
    #expect(await screen.started == ["profile", "friends", "messages"])

    let loader = Loader()
    #expect(await finishes { await loader.load() })
    #expect(await loader.started == 3)

    // Nonisolated code may capture a local variable.
    let receiver = requestsReceiver()
    var started = 0
    await receiver.verified(after: {
      for name in ["profile", "friends", "messages"] {
        started += 1
        receiver.check(name)
      }
    })
    #expect(started == 3)
  }

  @Test("a task cancelled in verified(after:) resumes without a completion")
  func verifiedAfterCancelled() async throws {
    let receiver = requestsReceiver()
    let task = Task { await receiver.verified { receiver.check("profile") } }
    try await waitUntil { receiver.suspendedWaiterCount == 1 }
    task.cancel()
    #expect(await finishes { await task.value })
    #expect(receiver.waiterCount == 0)
    #expect(receiver.remaining("friends") == 1)
  }

  @Test("verified(after:) in an already cancelled task runs work, then returns at once")
  func verifiedAfterPreCancelled() async {
    let receiver = requestsReceiver()
    let workRuns = Counter()
    let returned = await finishes {
      await withTaskGroup(of: Void.self) { group in
        group.cancelAll()
        group.addTask { await receiver.verified { workRuns.increment() } }
        await group.waitForAll()
      }
    }
    #expect(returned)
    #expect(workRuns.count == 1)
    #expect(receiver.waiterCount == 0)
  }

  @Test("duplicate names stop the program with a clear error")
  func duplicateName() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let receiver = NotificationReceiver()
      receiver.add(NotificationConditioner("profile"))
      receiver.add(NotificationConditioner("profile", minCount: 2))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "NotificationReceiver.add: a conditioner named \"profile\" is already in the set"))
  }
}

extension NotificationReceiver {
  /// The tasks tracked in `verified()`, in any state.
  var waiterCount: Int { state.withLock { $0.waiters.count } }

  /// The tasks suspended in `verified()` with their continuation stored.
  var suspendedWaiterCount: Int { state.withLock { $0.waiters.suspendedCount } }
}

/// A main-actor screen that starts its requests inside `verified(after:)`, from its own state.
@MainActor
private final class ProfileScreen {
  let receiver = requestsReceiver()
  var started: [String] = []

  func load() async {
    await receiver.verified {
      MainActor.assertIsolated()
      for name in ["profile", "friends", "messages"] {
        started.append(name)
        receiver.check(name)
      }
    }
  }
}

/// An actor that starts its requests inside `verified(after:)`, from its own state.
private actor Loader {
  let receiver = requestsReceiver()
  var started = 0

  func load() async {
    await receiver.verified(after: {
      assertIsolated()
      for name in ["profile", "friends", "messages"] {
        started += 1
        receiver.check(name)
      }
    })
  }
}

struct TimedOut: Error {}

/// Yields until `condition` holds, failing after `seconds`: for states that another task
/// reaches at an unknown moment, without sleeping.
func waitUntil(seconds: Double = 10, _ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !condition() {
    guard ContinuousClock.now < deadline else { throw TimedOut() }
    await Task.yield()
  }
}

@Suite("NotificationReceiver listening to a NotificationCenter")
struct NotificationReceiverListenTests {
  private final class Sender: Sendable {}

  @Test("each notification delivered is one arrival of the name's raw value")
  func countsDeliveries() {
    let center = NotificationCenter()
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("MessagesLoaded", minCount: 2))
    let completions = Counter()
    let tokens = [
      receiver.listen(to: Notification.Name("MessagesLoaded"), center: center),
      receiver.onVerified { completions.increment() },
    ]
    center.post(name: Notification.Name("MessagesLoaded"), object: nil)
    #expect(receiver.remaining("MessagesLoaded") == 1)
    center.post(name: Notification.Name("Unrelated"), object: nil)
    center.post(name: Notification.Name("MessagesLoaded"), object: nil, userInfo: ["page": 2])
    #expect(completions.count == 1)
    _ = tokens
  }

  @Test("the default center is observed unless another is given")
  func defaultCenter() {
    let name = Notification.Name("EventConditionsTests.default.\(UUID())")
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(NotificationConditioner(name.rawValue))
    let token = receiver.listen(to: name)
    NotificationCenter.default.post(name: name, object: nil)
    #expect(receiver.isVerified)
    token.cancel()
  }

  @Test("an object filter counts that sender only, by identity")
  func objectFilter() {
    let center = NotificationCenter()
    let name = Notification.Name("Loaded")
    let sender = Sender()
    let other = Sender()
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("Loaded", minCount: 5))
    let token = receiver.listen(to: name, center: center, object: sender)
    center.post(name: name, object: other)
    center.post(name: name, object: nil)
    #expect(receiver.remaining("Loaded") == 5)
    center.post(name: name, object: sender)
    #expect(receiver.remaining("Loaded") == 4)
    token.cancel()
  }

  @Test("the filter object is held weakly and, once gone, matches nothing")
  func objectHeldWeakly() {
    let center = NotificationCenter()
    let name = Notification.Name("Loaded")
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("Loaded", minCount: 5))
    weak var weakSender: Sender?
    let token: Subscription
    do {
      let sender = Sender()
      weakSender = sender
      token = receiver.listen(to: name, center: center, object: sender)
    }
    #expect(weakSender == nil)
    for _ in 0..<3 { center.post(name: name, object: Sender()) }
    center.post(name: name, object: nil)
    #expect(receiver.remaining("Loaded") == 5)
    token.cancel()
  }

  @Test("cancelling or releasing the subscription stops the counting")
  func cancelStops() {
    let center = NotificationCenter()
    let name = Notification.Name("Loaded")
    let receiver = NotificationReceiver()
    receiver.add(NotificationConditioner("Loaded", minCount: 5))
    let token = receiver.listen(to: name, center: center)
    center.post(name: name, object: nil)
    token.cancel()
    #expect(token.isCancelled)
    center.post(name: name, object: nil)
    _ = receiver.listen(to: name, center: center)
    center.post(name: name, object: nil)
    #expect(receiver.remaining("Loaded") == 4)
  }

  @Test("listening does not keep the receiver alive")
  func receiverHeldWeakly() {
    let center = NotificationCenter()
    let name = Notification.Name("Loaded")
    weak var weakReceiver: NotificationReceiver?
    let token: Subscription
    do {
      let receiver = NotificationReceiver()
      weakReceiver = receiver
      receiver.add(NotificationConditioner("Loaded"))
      token = receiver.listen(to: name, center: center)
    }
    #expect(weakReceiver == nil)
    center.post(name: name, object: nil)
    token.cancel()
  }

  @Test("notifications posted from other threads count exactly")
  func postsFromOtherThreads() {
    let center = NotificationCenter()
    let name = Notification.Name("Loaded")
    let receiver = NotificationReceiver(repeats: false)
    receiver.add(NotificationConditioner("Loaded", minCount: 100))
    let token = receiver.listen(to: name, center: center)
    DispatchQueue.concurrentPerform(iterations: 99) { _ in
      center.post(name: name, object: nil)
    }
    #expect(receiver.remaining("Loaded") == 1)
    #expect(onOtherThread { center.post(name: name, object: nil) })
    #expect(receiver.isVerified)
    token.cancel()
  }
}
