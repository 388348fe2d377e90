import Foundation

/// Every case, in the order of the table.
func allCases() -> [BenchmarkCase] {
  baselineCases() + foundationCases() + eventsDeliveryCases() + foundationSenderCases()
    + raiiSenderCases() + conditionsCases()
    + queueCases() + churnCases() + churnPostCases() + contentionCases() + progressCases()
    + additionsCases() + controlCases() + keyedPostCases() + requestReplyCases()
}

struct Options {
  var filters: [String] = []
  /// `nil`: print the table; `""`: JSON to stdout; a path: JSON to that file, table to stdout.
  var json: String?
  var settings = RunSettings()
  var list = false
  /// `single CASE ITERS`.
  var single: (id: String, iterations: Int)?
  /// `--charts=DIR`: where to write the SVG charts of the run.
  var charts: String?
  /// `--instructions=PATH`: instruction counts to show in the targets table.
  var instructions: String?
  /// `charts JSON DIR`: draws the charts of an earlier run's JSON, runs nothing.
  var chartsOnly: (json: String, directory: String)?
}

struct UsageError: Error, CustomStringConvertible {
  let description: String
}

let usage = """
  usage: events-benchmark [--filter SUBSTRING]... [--json[=PATH]] [--samples K] [--sample-ms MS]
                          [--charts=DIR] [--instructions=PATH]
         events-benchmark --list
         events-benchmark single CASE ITERATIONS
         events-benchmark charts JSON DIRECTORY

    --filter SUBSTRING  run the cases whose id (family/N) contains SUBSTRING, plus the baselines
                        they are compared with; may be repeated
    --json              write the figures as JSON to stdout (progress goes to stderr)
    --json=PATH         write the JSON to PATH and print the table too
    --samples K         samples per case (default 7, at least 5)
    --sample-ms MS      target duration of one sample of a loop case (default 40)
    --charts=DIR        write SVG charts of the run into DIR (delivery.svg, churn.svg)
    --instructions=PATH show the instructions per operation in PATH (written by
                        Benchmarks/instructions.sh) beside the targets' ratios
    --list              print every case id
    single CASE ITERS   run CASE's loop ITERS times and nothing else (for callgrind)
    charts JSON DIR     draw the charts of the run saved in JSON (--json=PATH) into DIR
  """

func parse(_ arguments: [String]) throws(UsageError) -> Options {
  var options = Options()
  var rest = arguments[...]
  if rest.first == "single" {
    guard rest.count == 3, let iterations = Int(rest[rest.startIndex + 2]), iterations > 0 else {
      throw UsageError(description: usage)
    }
    options.single = (rest[rest.startIndex + 1], iterations)
    return options
  }
  if rest.first == "charts" {
    guard rest.count == 3 else { throw UsageError(description: usage) }
    options.chartsOnly = (rest[rest.startIndex + 1], rest[rest.startIndex + 2])
    return options
  }
  while let argument = rest.popFirst() {
    switch argument {
    case "--filter":
      guard let value = rest.popFirst() else { throw UsageError(description: usage) }
      options.filters.append(value)
    case "--json":
      options.json = ""
    case _ where argument.hasPrefix("--json="):
      options.json = String(argument.dropFirst("--json=".count))
    case _ where argument.hasPrefix("--charts="):
      options.charts = String(argument.dropFirst("--charts=".count))
    case _ where argument.hasPrefix("--instructions="):
      options.instructions = String(argument.dropFirst("--instructions=".count))
    case "--samples":
      guard let value = rest.popFirst().flatMap({ Int($0) }), value >= 5 else {
        throw UsageError(description: "--samples needs a number of at least 5\n\n" + usage)
      }
      options.settings.samples = value
    case "--sample-ms":
      guard let value = rest.popFirst().flatMap({ Double($0) }), value > 0 else {
        throw UsageError(description: usage)
      }
      options.settings.targetSampleNanoseconds = value * 1_000_000
    case "--list":
      options.list = true
    default:
      throw UsageError(description: "unknown argument \(argument)\n\n" + usage)
    }
  }
  return options
}

/// The selected cases and the baselines they are divided by, in table order.
func select(_ cases: [BenchmarkCase], filters: [String]) -> [BenchmarkCase] {
  guard !filters.isEmpty else { return cases }
  let chosen = cases.filter { benchmark in filters.contains { benchmark.id.contains($0) } }
  let needed = Set(
    chosen.flatMap { benchmark in
      [benchmark.id] + benchmark.comparisons.all.map { benchmark.peer($0.family) }
    })
  return cases.filter { needed.contains($0.id) }
}

func machineDescription() -> String {
  let info = ProcessInfo.processInfo
  #if os(Linux)
    let os = "Linux"
  #else
    let os = "Darwin"
  #endif
  #if DEBUG
    let build = "DEBUG build: figures are meaningless, use -c release"
  #else
    let build = "release build"
  #endif
  return "Machine: \(os) \(info.operatingSystemVersionString), \(info.activeProcessorCount) cores, "
    + "\(build)."
}

func runSingle(_ id: String, iterations: Int) throws(UsageError) {
  guard let benchmark = allCases().first(where: { $0.id == id }) else {
    throw UsageError(description: "no case \(id); --list prints them")
  }
  switch benchmark.body {
  case .loop(let make):
    runMeasuredLoop(make(), iterations)
  case .fixed(_, let sample):
    for _ in 0..<iterations { _ = sample() }
  }
}

/// The loop alone, under a name of its own: `valgrind --tool=callgrind
/// --toggle-collect='*runMeasuredLoop*'` counts its instructions and nothing of the setup.
@inline(never)
func runMeasuredLoop(_ loop: Loop, _ iterations: Int) {
  loop.run(iterations)
}

func standardError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

@main
enum EventsBenchmark {
  static func main() {
    do {
      let options = try parse(Array(CommandLine.arguments.dropFirst()))
      if let single = options.single {
        try runSingle(single.id, iterations: single.iterations)
        return
      }
      if let chartsOnly = options.chartsOnly {
        let data = try Data(contentsOf: URL(fileURLWithPath: chartsOnly.json))
        let report = try JSONDecoder().decode(Report.self, from: data)
        for path in try Charts.write(report, to: chartsOnly.directory) { print(path) }
        return
      }
      if options.list {
        print(allCases().map(\.id).joined(separator: "\n"))
        return
      }
      let counter =
        try selfTestAllocationCounter()
        ?? "Allocations are not counted on this platform (the interposer needs glibc)."
      // Read before the run, so that a wrong path fails at once rather than after it.
      let instructions = try options.instructions.map { path in
        try JSONDecoder().decode(
          [String: Double].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
      }
      let cases = select(allCases(), filters: options.filters)
      guard !cases.isEmpty else { throw UsageError(description: "no case matches the filter") }
      let start = Date()
      var results = [CaseResult]()
      for (index, benchmark) in cases.enumerated() {
        standardError("[\(index + 1)/\(cases.count)] \(benchmark.id)")
        results.append(measure(benchmark, settings: options.settings))
      }
      computeRatios(&results, cases: cases)
      let seconds = Int(Date().timeIntervalSince(start).rounded())
      let report = Report(
        machine: machineDescription(),
        settings: "\(options.settings.samples) samples per case, loop samples of "
          + "\(Int(options.settings.targetSampleNanoseconds / 1_000_000)) ms; run took \(seconds) s.",
        counter: counter, results: results, targets: checkTargets(results))
      if let directory = options.charts {
        for path in try Charts.write(report, to: directory) { standardError("wrote \(path)") }
      }
      switch options.json {
      case nil:
        print(table(report, instructions: instructions))
      case ""?:
        FileHandle.standardOutput.write(try json(report))
        print()
      case let path?:
        try json(report).write(to: URL(fileURLWithPath: path))
        print(table(report, instructions: instructions))
      }
    } catch {
      standardError("\(error)")
      exit(1)
    }
  }
}
