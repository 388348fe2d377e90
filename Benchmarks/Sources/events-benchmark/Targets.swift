/// One target of an issue (7, 13, 14 or 21), checked against the figures of the run.
struct TargetCheck: Codable, Sendable {
  var issue = 7
  let target: String
  /// `nil` when the run did not include the cases it needs.
  let met: Bool?
  let detail: String
  /// The case-over-baseline ratios the target limits, by case id, so that other figures of
  /// the same two cases (callgrind's instruction counts) can be put beside the wall times.
  /// `nil` in the targets written before issue 21 and in runs saved before it.
  var ratios: [TargetRatio]? = nil
}

/// One ratio a target limits: `subject`'s median over `baseline`'s, at most `limit`.
struct TargetRatio: Codable, Sendable {
  let label: String
  let subject: String
  let baseline: String
  let limit: Double
}

/// Checks every target whose cases ran.
func checkTargets(_ results: [CaseResult]) -> [TargetCheck] {
  let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  func family(_ name: String) -> [CaseResult] {
    results.filter { $0.family == name }.sorted { ($0.observers ?? 0) < ($1.observers ?? 0) }
  }
  func ratios(_ name: String, _ column: String) -> [(Int, Double)] {
    family(name).compactMap { result in
      result.ratios[column].map { (result.observers ?? 0, $0.value) }
    }
  }
  func everyN(_ target: String, _ name: String, _ column: String, limit: Double) -> TargetCheck {
    let values = ratios(name, column)
    let detail = values.map { "N=\($0.0) \(format(ratio: $0.1))" }.joined(separator: ", ")
    return TargetCheck(
      target: target, met: values.isEmpty ? nil : values.allSatisfy { $0.1 <= limit },
      detail: detail.isEmpty ? "not run" : detail)
  }
  func ratio(_ target: String, _ id: String, _ column: String, limit: Double) -> TargetCheck {
    guard let value = byID[id]?.ratios[column]?.value else {
      return TargetCheck(target: target, met: nil, detail: "not run")
    }
    return TargetCheck(
      target: target, met: value <= limit,
      detail: "\(format(ratio: value)) (\(format(speedup: value)) faster)")
  }
  func below(_ target: String, _ id: String, _ limit: Double) -> TargetCheck {
    guard let result = byID[id] else {
      return TargetCheck(target: target, met: nil, detail: "not run")
    }
    let median = result.statistic.median
    return TargetCheck(
      target: target, met: median < limit,
      detail: "median \(format(result.statistic.median, unit: result.unit))")
  }

  var checks: [TargetCheck] = [
    everyN(
      "Token-held closures (event.subscribe) within 1.3x of the Mutex closure snapshot at every N",
      "event.subscribe", "mutex", limit: 1.3),
    ratio(
      "event.subscribe at least 5x faster than NotificationCenter at N=1", "event.subscribe/1",
      "NC", limit: 0.2),
    ratio(
      "event.subscribe at least 4x faster than NotificationCenter at N=1000",
      "event.subscribe/1000", "NC", limit: 0.25),
    everyN(
      "register(_:function:) within 1.3x of the weak-box snapshot at every N", "event.function",
      "weak", limit: 1.3),
    everyN(
      "Broadcaster.notify within 1.3x of the weak-box snapshot at every N",
      "broadcaster.notify", "weak", limit: 1.3),
  ]

  let synchronous = [
    "event.subscribe", "event.function", "event.handler", "broadcaster.notify", "receiver.check",
    "receiver.complete",
  ]
  let allocating = results.filter {
    synchronous.contains($0.family) && ($0.allocationsPerOperation ?? 0) > 0
  }
  let counted = results.filter {
    synchronous.contains($0.family) && $0.allocationsPerOperation != nil
  }
  checks.append(
    TargetCheck(
      target: "Zero heap allocations per synchronous post (EventTyped, EventBroadcast, "
        + "EventConditions)",
      met: counted.isEmpty ? nil : allocating.isEmpty,
      detail: allocating.isEmpty
        ? "\(counted.count) cases, all 0"
        : allocating.map { "\($0.id): \(format(allocations: $0.allocationsPerOperation))" }
          .joined(separator: ", ")))
  let raii = family("raii.observe") + family("raii.object")
  let extra = raii.compactMap { result -> String? in
    guard let ours = result.allocationsPerOperation,
      let foundation = byID[
        result.peer(
          result.family == "raii.object" ? "nc.object" : "nc.block",
          observers: 1)]?.allocationsPerOperation,
      ours > foundation
    else { return nil }
    return "\(result.id): \(format(allocations: ours)) vs Foundation's "
      + format(allocations: foundation)
  }
  checks.append(
    TargetCheck(
      target: "EventRAII adds no allocation to Foundation's own post (one center observer)",
      met: raii.isEmpty ? nil : extra.isEmpty,
      detail: raii.isEmpty
        ? "not run"
        : extra.isEmpty
          ? "\(raii.count) cases"
          : extra.joined(
            separator: ", ")))

  checks.append(
    below("Subscribe + cancel with 1,000 others under 300 ns", "churn.subscribe/1000", 300))
  checks.append(
    ratio(
      "Contention: at least 2x NotificationCenter's posts per second", "contention.event/10", "NC",
      limit: 0.5))
  if let contention = byID["contention.event/10"], let stall = contention.extras["longest stall ms"]
  {
    let foundation = byID["contention.nc/10"]?.extras["longest stall ms"]
    checks.append(
      TargetCheck(
        target: "Contention: no poster stall over 10 ms", met: stall.max <= 10,
        detail: "longest \(format(stall.max)) ms (median of samples \(format(stall.median)) ms)"
          + (foundation.map { "; NotificationCenter's longest \(format($0.max)) ms" } ?? "")))
  } else {
    checks.append(
      TargetCheck(target: "Contention: no poster stall over 10 ms", met: nil, detail: "not run"))
  }
  checks.append(
    below("Progress: 1,000 register+notify work items under 1 s", "progress.broadcaster", 1000))
  checks.append(
    below("A conditioner arrival (check) under 100 ns uncontended", "receiver.check/1", 100))
  return checks + issue13Targets(results) + issue14Targets(results) + issue21Targets(results)
    + issue32Targets(results)
}

/// A target met when every measured ratio is at most its limit; "not run" when one is missing.
func limitCheck(
  issue: Int, _ target: String, _ parts: [(label: String, value: Double?, limit: Double)]
) -> TargetCheck {
  let measured = parts.compactMap { part in part.value.map { (part.label, $0, part.limit) } }
  guard measured.count == parts.count else {
    return TargetCheck(issue: issue, target: target, met: nil, detail: "not run")
  }
  return TargetCheck(
    issue: issue, target: target, met: measured.allSatisfy { $0.1 <= $0.2 },
    detail: measured.map { label, value, limit in
      (label.isEmpty ? "" : "\(label) ") + "\(format(ratio: value)) (limit \(format(ratio: limit)))"
    }
    .joined(separator: ", "))
}

/// The targets of issue 14, "Once, replay and async handlers": its cases against Foundation's
/// or the standard library's way of doing the same.
func issue14Targets(_ results: [CaseResult]) -> [TargetCheck] {
  let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  func ratio(_ id: String, _ column: String) -> Double? { byID[id]?.ratios[column]?.value }
  let replay = results.filter { $0.family == "replay.latest" }
  let allocating = replay.filter { ($0.allocationsPerOperation ?? 1) > 0 }
  return [
    TargetCheck(
      issue: 14, target: "A post to an event with .latest replay allocates nothing, at every N",
      met: replay.isEmpty ? nil : allocating.isEmpty,
      detail: replay.isEmpty
        ? "not run"
        : allocating.isEmpty
          ? "\(replay.count) cases, all 0" : allocating.map(\.id).joined(separator: ", ")),
    limitCheck(
      issue: 14,
      "subscribeOnce / observeOnce + post no slower than a self-removing observer (once.nc)",
      [
        ("subscribeOnce", ratio("once.subscribe", "NC"), 1),
        ("observeOnce", ratio("once.observe", "NC"), 1),
      ]),
    limitCheck(
      issue: 14, "An async handler's throughput within 1.2x of an AsyncStream consumer",
      [("", ratio("async.subscribe/1", "array"), 1.2)]),
  ]
}

/// The targets of issue 13, "Ahead of Foundation on every path".
func issue13Targets(_ results: [CaseResult]) -> [TargetCheck] {
  let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  func check(_ target: String, _ parts: [(label: String, value: Double?, limit: Double)])
    -> TargetCheck
  {
    limitCheck(issue: 13, target, parts)
  }
  func ratio(_ id: String, _ column: String) -> Double? { byID[id]?.ratios[column]?.value }

  var checks = [
    check(
      "Sender filters: raii.object against Foundation's object: filter (nc.object)",
      [
        ("N=1", ratio("raii.object/1", "NC"), 1.2), ("N=10", ratio("raii.object/10", "NC"), 0.8),
        ("N=1000", ratio("raii.object/1000", "NC"), 0.5),
      ]),
    check(
      "Sender filters: raii.others (1,000 senders, one posts) against Foundation's nc.others",
      [("", ratio("raii.others/1000", "NC"), 1.2)]),
    check(
      "Broadcaster.notify within 1.3x of the weak-box snapshot at every N >= 1",
      observerCounts.filter { $0 > 0 }.map {
        ("N=\($0)", ratio("broadcaster.notify/\($0)", "weak"), 1.3)
      }),
    check(
      "Churn: every churn case at most 0.5x Foundation's (churn.nc)",
      ["subscribe", "register", "broadcaster", "raii"].map {
        ($0, ratio("churn.\($0)/1000", "NC"), 0.5)
      }),
  ]
  let allocations = ["subscribe", "register"].map { name in
    (name, byID["churn.\(name)/1000"]?.allocationsPerOperation)
  }
  checks.append(
    allocations.contains { $0.1 == nil }
      ? TargetCheck(
        issue: 13, target: "Churn: subscribe and register at most 2 allocations each", met: nil,
        detail: "not run")
      : TargetCheck(
        issue: 13, target: "Churn: subscribe and register at most 2 allocations each",
        met: allocations.allSatisfy { ($0.1 ?? 0) <= 2 },
        detail: allocations.map { "\($0.0) \(format(allocations: $0.1))" }
          .joined(separator: ", ")))
  checks.append(
    check(
      "Many threads: progress.event and progress.broadcaster no slower than progress.nc",
      [
        ("event", ratio("progress.event", "NC"), 1),
        (
          "broadcaster", ratio("progress.broadcaster", "NC"), 1
        ),
      ]))
  let functionAllocations = results.filter {
    ["event.function", "event.function.opaque"].contains($0.family)
  }
  checks.append(
    TargetCheck(
      issue: 13,
      target: "register(_:function:) allocates nothing per delivery, inlined or not",
      met: functionAllocations.isEmpty
        ? nil : functionAllocations.allSatisfy { ($0.allocationsPerOperation ?? 1) == 0 },
      detail: functionAllocations.isEmpty
        ? "not run"
        : functionAllocations.map { "\($0.id) \(format(allocations: $0.allocationsPerOperation))" }
          .joined(separator: ", ")))
  let fair = ["event", "broadcaster"].compactMap { name in
    byID["contention.\(name)/10"]?.extras["longest churn ms"].map { (name, $0.max) }
  }
  let mutexChurn = byID["contention.mutex/10"]?.extras["longest churn ms"]?.max
  checks.append(
    TargetCheck(
      issue: 13,
      target: "Fairness: a register+cancel while 2 threads post flat out never waits over 10 ms",
      met: fair.count == 2 ? fair.allSatisfy { $0.1 <= 10 } : nil,
      detail: fair.isEmpty
        ? "not run"
        : fair.map { "\($0.0) longest \(format($0.1)) ms" }.joined(separator: ", ")
          + (mutexChurn.map { "; Mutex baseline's longest \(format($0)) ms" } ?? "")))
  let synchronous = results.filter {
    [
      "event.subscribe", "event.function", "event.handler", "broadcaster.notify",
      "receiver.check", "receiver.complete",
    ].contains($0.family) && $0.allocationsPerOperation != nil
  }
  let allocating = synchronous.filter { ($0.allocationsPerOperation ?? 0) > 0 }
  checks.append(
    TargetCheck(
      issue: 13,
      target: "No regression: every synchronous post allocates nothing (event.function.opaque "
        + "is target 4's, above)",
      met: synchronous.isEmpty ? nil : allocating.isEmpty,
      detail: allocating.isEmpty
        ? "\(synchronous.count) cases, all 0"
        : allocating.map(\.id).joined(separator: ", ")))
  checks.append(
    check(
      "No regression: event.subscribe within 1.3x of the Mutex snapshot at every N",
      observerCounts.map { ("N=\($0)", ratio("event.subscribe/\($0)", "mutex"), 1.3) }))
  return checks
}

/// The targets of issue 21, "Registration at the speed of a post": registration changes and
/// the post after one against Foundation and the snapshot baselines, and the post path and
/// contention as the issue's table and "Targets" list set them.
func issue21Targets(_ results: [CaseResult]) -> [TargetCheck] {
  let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  func check(_ target: String, _ parts: [TargetRatio]) -> TargetCheck {
    var check = limitCheck(
      issue: 21, target,
      parts.map { part in
        let value = byID[part.subject].flatMap { subject in
          byID[part.baseline].flatMap { baseline in
            baseline.statistic.median > 0
              ? subject.statistic.median / baseline.statistic.median : nil
          }
        }
        return (part.label, value, part.limit)
      })
    check.ratios = parts
    return check
  }
  let churnLimits = [("subscribe", 0.4), ("register", 0.5), ("broadcaster", 0.5), ("raii", 0.5)]
  var checks = [
    check(
      "Churn: each churn case against Foundation's add + remove (churn.nc), 1,000 others",
      churnLimits.map { name, limit in
        TargetRatio(
          label: name, subject: "churn.\(name)/1000", baseline: "churn.nc/1000", limit: limit)
      })
  ]
  let allocations = ["subscribe", "register"].map { name in
    (name, byID["churn.\(name)/1000"]?.allocationsPerOperation)
  }
  let allocationTarget = "Churn: subscribe and register at most 2 allocations each"
  checks.append(
    allocations.contains { $0.1 == nil }
      ? TargetCheck(issue: 21, target: allocationTarget, met: nil, detail: "not run")
      : TargetCheck(
        issue: 21, target: allocationTarget,
        met: allocations.allSatisfy { ($0.1 ?? 0) <= 2 },
        detail: allocations.map { "\($0.0) \(format(allocations: $0.1))" }
          .joined(separator: ", ")))
  checks += [
    check(
      "A post after a change: churn.post.subscribe within 1.5x of the Mutex snapshot's post, "
        + "churn.post.broadcaster within 0.8x of the weak-box snapshot's (N=1000)",
      [
        TargetRatio(
          label: "subscribe", subject: "churn.post.subscribe/1000",
          baseline: "baseline.mutex/1000", limit: 1.5),
        TargetRatio(
          label: "broadcaster", subject: "churn.post.broadcaster/1000",
          baseline: "baseline.weak/1000", limit: 0.8),
      ]),
    check(
      "Post path: event.subscribe within 1.3x of the Mutex snapshot at every N",
      observerCounts.map {
        TargetRatio(
          label: "N=\($0)", subject: "event.subscribe/\($0)", baseline: "baseline.mutex/\($0)",
          limit: 1.3)
      }),
    check(
      "Post path: raii.object at N=1 and raii.others within 1.2x of Foundation's object: filter",
      [
        TargetRatio(
          label: "raii.object/1", subject: "raii.object/1", baseline: "nc.object/1", limit: 1.2),
        TargetRatio(
          label: "raii.others", subject: "raii.others/1000", baseline: "nc.others/1000",
          limit: 1.2),
      ]),
  ]

  let event = byID["contention.event/10"]?.extras
  let foundation = byID["contention.nc/10"]?.extras
  // Throughputs as Foundation's over ours, so that "at least Foundation's" is a limit of 1 and
  // "at least 2x" one of 0.5, as every other limit here.
  func inverse(_ name: String) -> Double? {
    guard let ours = event?[name]?.median, ours > 0, let theirs = foundation?[name]?.median
    else { return nil }
    return theirs / ours
  }
  var contention = limitCheck(
    issue: 21,
    "Contention (2 threads post, 1 subscribes and cancels): churns/s at least Foundation's, "
      + "posts/s at least 2x Foundation's",
    [
      ("Foundation's churns/s over ours", inverse("churns/s"), 1),
      ("Foundation's posts/s over ours", inverse("posts/s"), 0.5),
    ])
  if contention.met != nil, let event, let foundation {
    contention = TargetCheck(
      issue: 21, target: contention.target, met: contention.met,
      detail: contention.detail + "; churns/s \(format(event["churns/s"]?.median ?? 0)) vs "
        + "\(format(foundation["churns/s"]?.median ?? 0)), posts/s "
        + "\(format(event["posts/s"]?.median ?? 0)) vs \(format(foundation["posts/s"]?.median ?? 0))"
    )
  }
  checks.append(contention)
  let stall = event?["longest stall ms"]?.max
  let churn = event?["longest churn ms"]?.max
  checks.append(
    TargetCheck(
      issue: 21,
      target: "Contention fairness: no poster stall and no subscribe+cancel over 10 ms",
      met: stall.flatMap { stall in churn.map { stall <= 10 && $0 <= 10 } },
      detail: stall.flatMap { stall in
        churn.map { "longest stall \(format(stall)) ms, longest churn \(format($0)) ms" }
      } ?? "not run"))
  checks.append(
    check(
      "Many threads: progress.event no slower than progress.nc",
      [TargetRatio(label: "", subject: "progress.event", baseline: "progress.nc", limit: 1)]))
  return checks
}

/// The targets of issue 32, "Keyed events: one reply among thousands of waiters": requests all
/// in flight against a dictionary of continuations, their growth with N, and a post to one key
/// among 10,000 against a post to an `Event` with the same observers.
func issue32Targets(_ results: [CaseResult]) -> [TargetCheck] {
  let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  func check(_ target: String, _ parts: [TargetRatio]) -> TargetCheck {
    var check = limitCheck(
      issue: 32, target,
      parts.map { part in
        let value = byID[part.subject].flatMap { subject in
          byID[part.baseline].flatMap { baseline in
            baseline.statistic.median > 0
              ? subject.statistic.median / baseline.statistic.median : nil
          }
        }
        return (part.label, value, part.limit)
      })
    check.ratios = parts
    return check
  }
  let doublings = zip(requestCounts.dropLast(), requestCounts.dropFirst()).filter {
    $0.1 == 2 * $0.0
  }
  return [
    check(
      "Request/reply: 10,000 requests in flight (KeyedEvent, with a timeout) within 2x a "
        + "dictionary of continuations",
      [
        TargetRatio(
          label: "", subject: "reply.keyed/10000", baseline: "reply.baseline/10000", limit: 2)
      ]),
    check(
      "Request/reply: linear in the requests in flight, each doubling at most 2.3x the time",
      doublings.map { small, large in
        TargetRatio(
          label: "\(small / 1000)k to \(large / 1000)k", subject: "reply.keyed/\(large)",
          baseline: "reply.keyed/\(small)", limit: 2.3)
      }),
    check(
      "A post to one key with 10,000 other live keys within 1.5x a post to an Event with the "
        + "same observers (the limit is on instructions; Met and Figures here are wall time)",
      [1, 10].map { n in
        TargetRatio(
          label: "N=\(n)", subject: "keyed.post/\(n)", baseline: "event.subscribe/\(n)",
          limit: 1.5)
      }),
  ]
}

extension CaseResult {
  /// The id of `family`'s case at `observers`.
  func peer(_ family: String, observers: Int) -> String {
    "\(family)/\(observers)"
  }
}
