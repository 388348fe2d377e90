/// The baselines a case's time is divided by, one per column of the table, each at the case's
/// own observer count. `nil` leaves the column empty.
struct Comparisons: Sendable {
  var array: String?
  var mutex: String?
  var counted: String?
  var weak: String?
  var foundation: String?

  static let none = Comparisons()

  /// The three in-binary baselines and Foundation's block observers.
  static let delivery = Comparisons(
    array: "baseline.array", mutex: "baseline.mutex", counted: "baseline.counted",
    weak: "baseline.weak", foundation: "nc.block")

  /// As ``delivery``, against Foundation's observers filtered by sender.
  static let filteredDelivery = Comparisons(
    array: "baseline.array", mutex: "baseline.mutex", counted: "baseline.counted",
    weak: "baseline.weak", foundation: "nc.object")

  var all: [(column: String, family: String)] {
    [
      ("array", array), ("mutex", mutex), ("counted", counted), ("weak", weak),
      ("NC", foundation),
    ]
    .compactMap { column, family in family.map { (column, $0) } }
  }
}

/// A loop that a case times: `run(k)` performs the measured operation `k` times.
///
/// Holds everything the case set up (observers, tokens), which lives as long as the loop.
final class Loop {
  let run: (Int) -> Void

  init(_ run: @escaping (Int) -> Void) {
    self.run = run
  }
}

/// One run of a case whose samples are not a timed loop (threads, work items).
struct FixedSample {
  /// The figure itself, in the case's unit.
  var value: Double
  /// How many operations it covers, for allocations per operation.
  var operations: Int
  /// Further figures of the sample, such as the longest stall.
  var extras: [String: Double] = [:]
}

enum CaseBody {
  /// Timed as a loop of iterations, calibrated to the target sample time; the figure is the
  /// time per iteration, in nanoseconds.
  case loop(() -> Loop)
  /// Each sample runs `sample` once; the figure is what it returns.
  case fixed(unit: String, sample: () -> FixedSample)
}

/// One benchmark case: an operation at one observer count.
struct BenchmarkCase {
  /// The case's family, such as `event.subscribe`; the id adds `/N`.
  let family: String
  /// The number of observers registered, where it applies.
  let observers: Int?
  /// What is measured, for the table.
  let title: String
  /// Which threads' allocations count towards the figure.
  let allocationScope: AllocationScope
  let comparisons: Comparisons
  /// Whether the time divided by the observer count means something (delivery cases).
  let reportsPerObserver: Bool
  let body: CaseBody

  var id: String { observers.map { "\(family)/\($0)" } ?? family }

  init(
    _ family: String, observers: Int?, perObserver: Bool = true, title: String,
    allocations: AllocationScope = .thread, comparisons: Comparisons = .none, body: CaseBody
  ) {
    self.reportsPerObserver = perObserver
    self.family = family
    self.observers = observers
    self.title = title
    self.allocationScope = allocations
    self.comparisons = comparisons
    self.body = body
  }

  /// The id of the case in `family` at this case's observer count.
  func peer(_ family: String) -> String {
    observers.map { "\(family)/\($0)" } ?? family
  }
}

/// The observer counts of every case where a count applies.
let observerCounts = [0, 1, 10, 100, 1000]
