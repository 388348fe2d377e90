import Events
import Foundation

/// `conditions`: IRNotificationReceiver's demo. Three simulated requests (profile, friends,
/// messages) answer on background queues after a random latency; a receiver counts their
/// success notifications (`GetUserProfileSuccessNotification` as `profile`, and so on), prints
/// a status line as each arrives, and reports once all three have arrived, whatever the order,
/// and a failed request is ignored so that the round still ends.
///
/// The main actor starts each round inside `receiver.verified(timeout:after:)`, the race-free
/// way to wait for arrivals it causes: the wait is registered before the first request starts,
/// and a round that never completes throws instead of hanging the demo.
enum ConditionsDemo {
  @MainActor
  static func run(seed: UInt64) async -> Bool {
    let report = DemoReport(
      name: "conditions",
      title: "act once three requests have all arrived (EventConditions)", scenarios: 5)
    let run = ConditionsRun(seed: seed)
    await report.scenario("sequential: each request starts when the previous one succeeded") {
      await run.sequential(report)
    }
    await report.scenario("concurrent: all three start at once and finish in any order") {
      await run.concurrent(report)
    }
    await report.scenario("failing: friends fails and is ignored, so the round still completes") {
      await run.failing(report)
    }
    await report.scenario("mixed: profile first, then friends and messages together") {
      await run.mixed(report)
    }
    await report.scenario("cached: all three answer before the waiting task suspends") {
      await run.cached(report)
    }
    return report.finish()
  }
}

/// The receiver, the simulated API and what they report, shared by the five runs.
///
/// The receiver repeats (the default): each completion re-arms the three conditioners, so the
/// same receiver serves every run, like a screen whose refresh button can be pressed again.
@MainActor
private final class ConditionsRun {
  private var random: SeededGenerator
  private let seed: UInt64
  private let receiver = NotificationReceiver()
  private let api: SimulatedAPI
  /// The time of each completion, in milliseconds since the start.
  private let verifications = Arrivals<Double>()
  private let ignored = Arrivals<String>()
  /// The names `onArrival` reported, in order: the status lines.
  private let statusLines = Arrivals<String>()
  private let subscriptions = SubscriptionBag()

  init(seed: UInt64) {
    self.seed = seed
    random = SeededGenerator(seed: seed)
    let center = NotificationCenter()
    api = SimulatedAPI(center: center)
    for request in Request.allCases {
      receiver.add(NotificationConditioner(request.name))
      receiver.listen(to: request.notification, center: center, as: request.name)
        .store(in: subscriptions)
    }
    // IRNotificationReceiver's demo appends "<name> Success." to a status label per arrival.
    receiver.onArrival { [statusLines] name in
      DemoLog.event("status: \(name) Success.")
      statusLines.record(name)
    }.store(in: subscriptions)
    receiver.onVerified { [verifications] in
      DemoLog.event("receiver: all three have arrived")
      verifications.record(DemoLog.elapsedMilliseconds)
    }.store(in: subscriptions)
    receiver.onIgnored { [ignored] name in
      DemoLog.event("receiver: \(name) ignored")
      ignored.record(name)
    }.store(in: subscriptions)
  }

  func sequential(_ report: DemoReport) async {
    let latency = drawLatencies()
    let api = api
    let total = latency[.profile]! + latency[.friends]! + latency[.messages]!
    let elapsed = await round(report) {
      api.request(.profile, latency: latency[.profile]!) {
        api.request(.friends, latency: latency[.friends]!) {
          api.request(.messages, latency: latency[.messages]!)
        }
      }
    }
    guard let elapsed else { return }
    DemoLog.event("sequential: all three arrived after \(elapsed) ms; latencies sum to \(total) ms")
    report.check(
      api.arrivals.all.suffix(3) == [.profile, .friends, .messages],
      "the successes arrived as profile, friends, messages")
    report.check(elapsed >= total, "it took at least the sum of the latencies (\(total) ms)")
  }

  func concurrent(_ report: DemoReport) async {
    let latency = drawLatencies()
    let api = api
    let slowest = latency.values.max()!
    let elapsed = await round(report) {
      for request in Request.allCases {
        api.request(request, latency: latency[request]!)
      }
    }
    guard let elapsed else { return }
    DemoLog.event("concurrent: all three arrived after \(elapsed) ms; slowest \(slowest) ms")
    report.check(
      Set(api.arrivals.all.suffix(3)) == Set(Request.allCases),
      "each request arrived once, in the order their latencies allowed")
    report.check(elapsed >= slowest, "it took at least the slowest latency (\(slowest) ms)")
  }

  func failing(_ report: DemoReport) async {
    let latency = drawLatencies()
    let api = api
    let arrivalsBefore = api.arrivals.count
    let elapsed = await round(report) {
      for request in Request.allCases {
        api.request(request, latency: latency[request]!, fails: request == .friends)
      }
    }
    guard let elapsed else { return }
    DemoLog.event("failing: two arrived and one was ignored after \(elapsed) ms")
    report.check(
      ignored.all == [Request.friends.name],
      "the receiver heard of the ignored friends request through onIgnored")
    report.check(
      Set(api.arrivals.all.dropFirst(arrivalsBefore)) == [.profile, .messages],
      "it completed with two successes and one ignore")
  }

  func mixed(_ report: DemoReport) async {
    let latency = drawLatencies()
    let api = api
    let expected = latency[.profile]! + max(latency[.friends]!, latency[.messages]!)
    let elapsed = await round(report) {
      api.request(.profile, latency: latency[.profile]!) {
        api.request(.friends, latency: latency[.friends]!)
        api.request(.messages, latency: latency[.messages]!)
      }
    }
    guard let elapsed else { return }
    DemoLog.event(
      "mixed: all three arrived after \(elapsed) ms; profile + slower other: \(expected) ms")
    report.check(api.arrivals.all.suffix(3).first == .profile, "profile arrived first")
    report.check(elapsed >= expected, "it took at least \(expected) ms")
  }

  func cached(_ report: DemoReport) async {
    let api = api
    let verifications = verifications
    let completionsBefore = verifications.count
    let seenByStart = Arrivals<Int>()
    let elapsed = await round(report) {
      for request in Request.allCases { api.answerFromCache(request) }
      seenByStart.record(verifications.count)
    }
    guard let elapsed else { return }
    DemoLog.event("cached: all three arrived after \(elapsed) ms, inside the closure")
    report.check(
      seenByStart.all == [completionsBefore + 1],
      "the round completed inside the closure, before the task suspended, and still counted")
  }

  /// Starts one round inside `receiver.verified(timeout:after:)`, which waits, with a bound,
  /// for the receiver to report it complete.
  ///
  /// - Returns: The milliseconds from the start to the completion, or `nil` if it did not
  ///   complete in time.
  private func round(_ report: DemoReport, start: @escaping @MainActor () -> Void) async -> Int? {
    let completionsBefore = verifications.count
    let statusLinesBefore = statusLines.count
    let successesBefore = api.arrivals.count
    let startedAt = DemoLog.elapsedMilliseconds
    let receiver = receiver
    DemoLog.event("try await receiver.verified(timeout: 5 s) { start the requests }")
    do {
      // The wait is registered before `start` runs, so an answer that comes before this task
      // suspends still ends it. `start` runs here, on the main actor.
      try await receiver.verified(timeout: .seconds(5)) { start() }
    } catch {
      DemoLog.event("receiver: \(error)")
    }
    // `onVerified` handlers run before waiting tasks resume: a completion is recorded by now.
    let completed = verifications.count > completionsBefore
    report.check(completed, "verified(timeout:after:) returned once all three had arrived")
    // Sorted: two queues may record their successes in one order and post them in the other.
    report.check(
      statusLines.all.dropFirst(statusLinesBefore).sorted()
        == api.arrivals.all.dropFirst(successesBefore).map(\.name).sorted(),
      "onArrival printed one status line per success")
    guard completed, let verifiedAt = verifications.all.last else { return nil }
    report.check(
      verifications.count == completionsBefore + 1, "onVerified reported the round exactly once")
    report.check(
      !receiver.isVerified && Request.allCases.allSatisfy { receiver.remaining($0.name) == 1 },
      "the receiver re-armed all three conditioners for the next round")
    // Whole milliseconds: the clock reads a little after the timers fire, never before.
    return Int(verifiedAt - startedAt)
  }

  /// Draws the next latency of each request, 40 to 160 ms, and shows them.
  private func drawLatencies() -> [Request: Int] {
    var latency: [Request: Int] = [:]
    for request in Request.allCases {
      latency[request] = Int.random(in: 40...160, using: &random)
    }
    let list = Request.allCases.map { "\($0) \(latency[$0]!) ms" }.joined(separator: ", ")
    DemoLog.event("latencies (seed \(seed)): \(list)")
    return latency
  }
}

/// The three requests of IRNotificationReceiver's demo.
private enum Request: String, CaseIterable, Sendable {
  case profile, friends, messages

  /// The notification posted when the request succeeds.
  var notification: Notification.Name {
    switch self {
    case .profile: Notification.Name("GetUserProfileSuccessNotification")
    case .friends: Notification.Name("GetFriendsSuccessNotification")
    case .messages: Notification.Name("GetMessagesSuccessNotification")
    }
  }

  /// The conditioner's name, which `listen(to:center:as:)` counts the notification under.
  var name: String { rawValue }

  /// The background queue the request answers on.
  var queue: DispatchQueue {
    switch self {
    case .profile: Self.queues.profile
    case .friends: Self.queues.friends
    case .messages: Self.queues.messages
    }
  }

  private static let queues = (
    profile: ExecutionContext.queue("api.profile"),
    friends: ExecutionContext.queue("api.friends"),
    messages: ExecutionContext.queue("api.messages")
  )
}

/// Answers requests after a latency, on the request's queue, by posting its success
/// notification, or on failure by ignoring it in every receiver (it knows no receiver).
private final class SimulatedAPI: Sendable {
  private let center: NotificationCenter
  /// The requests that succeeded, in the order their notifications were posted.
  let arrivals = Arrivals<Request>()

  init(center: NotificationCenter) {
    self.center = center
  }

  /// Answers `request` from a cache: its notification is posted at once, on the calling thread.
  func answerFromCache(_ request: Request) {
    DemoLog.event("\(request) answered from the cache: post \(request.notification.rawValue)")
    arrivals.record(request)
    center.post(name: request.notification, object: nil)
  }

  /// Starts `request`; it answers after `latency` milliseconds, then runs `next`.
  func request(
    _ request: Request, latency: Int, fails: Bool = false,
    then next: @escaping @Sendable () -> Void = {}
  ) {
    DemoLog.event("GET /\(request) (answers in \(latency) ms)")
    // The latency is simulated by a timer on the request's queue, never by a sleep.
    request.queue.asyncAfter(deadline: .now() + .milliseconds(latency)) { [self] in
      if fails {
        DemoLog.event("\(request) failed: NotificationReceiver.ignore(\"\(request.name)\")")
        NotificationReceiver.ignore(request.name)
      } else {
        DemoLog.event("\(request) loaded: post \(request.notification.rawValue)")
        arrivals.record(request)
        center.post(name: request.notification, object: nil)
      }
      next()
    }
  }
}
