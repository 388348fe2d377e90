/// Median, minimum and maximum of a set of samples.
struct Statistic: Codable, Sendable {
  let median: Double
  let min: Double
  let max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    median =
      sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    min = sorted.first ?? 0
    max = sorted.last ?? 0
  }
}

/// One baseline a case was divided by.
struct Ratio: Codable, Sendable {
  /// The baseline's case id.
  let against: String
  /// The case's median over the baseline's median: below 1 the case is faster.
  let value: Double
}

/// The figures of one case.
struct CaseResult: Codable, Sendable {
  let id: String
  let family: String
  let observers: Int?
  let title: String
  let unit: String
  let samples: [Double]
  let statistic: Statistic
  /// Operations per timed sample, for loop cases.
  let iterationsPerSample: Int?
  /// Heap allocations per operation (per post, per subscribe+cancel, per work item), counted.
  let allocationsPerOperation: Double?
  let allocationScope: AllocationScope
  let extras: [String: Statistic]
  /// The median divided by the observer count, for delivery cases.
  let perObserver: Double?
  /// By table column: `array`, `mutex`, `counted`, `weak`, `NC`.
  var ratios: [String: Ratio] = [:]
}

/// How long a sample runs and how many are taken.
struct RunSettings: Sendable {
  var samples = 7
  var targetSampleNanoseconds: Double = 40_000_000
}

/// Runs one loop and returns its duration in nanoseconds.
private func time(_ loop: Loop, _ iterations: Int) -> Double {
  let start = now()
  loop.run(iterations)
  return Double(now() - start)
}

/// Measures `benchmark`: calibrates the iterations of a loop case to the target sample time,
/// takes the samples, then counts allocations in a separate, untimed pass.
func measure(_ benchmark: BenchmarkCase, settings: RunSettings) -> CaseResult {
  switch benchmark.body {
  case .loop(let make):
    let loop = make()
    loop.run(1)
    // Grow the loop until it takes 2 ms, which places the clock's overhead under 0.1%.
    var iterations = 1
    var elapsed = time(loop, iterations)
    while elapsed < 2_000_000 && iterations < 1 << 30 {
      iterations *= 4
      elapsed = time(loop, iterations)
    }
    let perOperation = elapsed / Double(iterations)
    iterations = max(1, Int(settings.targetSampleNanoseconds / perOperation))
    let samples = (0..<settings.samples).map { _ in
      time(loop, iterations) / Double(iterations)
    }
    let counted = max(1, min(iterations, 10_000))
    let allocations = countAllocations(benchmark.allocationScope) { loop.run(counted) }
    return CaseResult(
      id: benchmark.id, family: benchmark.family, observers: benchmark.observers,
      title: benchmark.title, unit: "ns", samples: samples, statistic: Statistic(samples),
      iterationsPerSample: iterations,
      allocationsPerOperation: allocations.map { Double($0) / Double(counted) },
      allocationScope: benchmark.allocationScope, extras: [:],
      perObserver: benchmark.reportsPerObserver
        ? benchmark.observers.flatMap { $0 > 0 ? Statistic(samples).median / Double($0) : nil }
        : nil)
  case .fixed(let unit, let sample):
    _ = sample()
    let runs = (0..<settings.samples).map { _ in sample() }
    var operations = 0
    let allocations = countAllocations(benchmark.allocationScope) {
      operations = sample().operations
    }
    let extraNames = Set(runs.flatMap(\.extras.keys))
    let extras = Dictionary(
      uniqueKeysWithValues: extraNames.map { name in
        (name, Statistic(runs.compactMap { $0.extras[name] }))
      })
    let samples = runs.map(\.value)
    return CaseResult(
      id: benchmark.id, family: benchmark.family, observers: benchmark.observers,
      title: benchmark.title, unit: unit, samples: samples, statistic: Statistic(samples),
      iterationsPerSample: nil,
      allocationsPerOperation: allocations.map { Double($0) / Double(max(operations, 1)) },
      allocationScope: benchmark.allocationScope, extras: extras, perObserver: nil)
  }
}

/// Fills in every result's ratios against the baselines measured in the same run.
func computeRatios(_ results: inout [CaseResult], cases: [BenchmarkCase]) {
  let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  let caseByID = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  for index in results.indices {
    guard let benchmark = caseByID[results[index].id] else { continue }
    for (column, family) in benchmark.comparisons.all {
      let peer = benchmark.peer(family)
      guard let baseline = byID[peer], baseline.statistic.median > 0 else { continue }
      results[index].ratios[column] = Ratio(
        against: peer, value: results[index].statistic.median / baseline.statistic.median)
    }
  }
}
