import Foundation

/// Everything a run produced, as `--json` writes it.
struct Report: Codable, Sendable {
  let machine: String
  let settings: String
  let counter: String
  let results: [CaseResult]
  let targets: [TargetCheck]
}

/// The table, in Markdown so that it can be pasted into the docs as it is.
/// Given `instructions` (per operation, by case id, as `instructions.sh` writes them and
/// `--instructions=PATH` reads them), the targets table gives them, and their ratio, beside
/// each ratio a target limits.
func table(_ report: Report, instructions: [String: Double]? = nil) -> String {
  var lines = [
    report.machine, report.settings, report.counter, "",
    "Times are medians of the samples; ratios are this row's median over the baseline's in the "
      + "same run (below 1 = faster).", "",
    "| Case | N | Median | Min–max | Per observer | Allocs/op | ×array | ×mutex | ×counted "
      + "| ×weak | ×NC |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ]
  for result in report.results {
    let stat = result.statistic
    let cells =
      [
        result.family, result.observers.map(String.init) ?? "",
        format(stat.median, unit: result.unit),
        "\(format(stat.min, unit: result.unit)) – \(format(stat.max, unit: result.unit))",
        result.perObserver.map { format($0, unit: "ns") } ?? "",
        format(allocations: result.allocationsPerOperation),
      ]
      + ["array", "mutex", "counted", "weak", "NC"].map {
        result.ratios[$0].map { format(ratio: $0.value) } ?? ""
      }
    lines.append("| " + cells.joined(separator: " | ") + " |")
  }
  let extras = report.results.filter { !$0.extras.isEmpty }
  if !extras.isEmpty {
    lines += [
      "", "| Case | Posts/s | Longest stall | Churns/s | Longest churn |", "|---|--:|--:|--:|--:|",
    ]
    for result in extras {
      func cell(_ name: String, _ unit: String) -> String {
        result.extras[name].map { "\(format($0.median))\(unit) (max \(format($0.max))\(unit))" }
          ?? ""
      }
      lines.append(
        "| \(result.id) | \(cell("posts/s", "")) | \(cell("longest stall ms", " ms")) | "
          + "\(cell("churns/s", "")) | \(cell("longest churn ms", " ms")) |")
    }
  }
  lines += ["", "What each case measures:", ""]
  var seen = Set<String>()
  for result in report.results where seen.insert(result.family).inserted {
    let scope = result.allocationScope == .process ? " Allocations: all threads." : ""
    lines.append("- `\(result.family)`: \(result.title).\(scope)")
  }
  if !report.targets.isEmpty {
    lines +=
      instructions == nil
      ? ["", "| Issue | Target | Met | Figures |", "|--:|---|---|---|"]
      : [
        "", "| Issue | Target | Met | Figures | Instructions per operation (callgrind) |",
        "|--:|---|---|---|---|",
      ]
    for check in report.targets {
      let met = check.met.map { $0 ? "yes" : "**no**" } ?? "not run"
      let counted = instructions.map { " \(instructionCell(check, $0)) |" } ?? ""
      lines.append("| \(check.issue) | \(check.target) | \(met) | \(check.detail) |" + counted)
    }
  }
  return lines.joined(separator: "\n")
}

/// Each ratio of `check` as `label 4,512 / 5,815 Ir = 0.78x`, where both cases were counted.
func instructionCell(_ check: TargetCheck, _ instructions: [String: Double]) -> String {
  (check.ratios ?? []).compactMap { ratio -> String? in
    guard let subject = instructions[ratio.subject], let baseline = instructions[ratio.baseline],
      baseline > 0
    else { return nil }
    let label = ratio.label.isEmpty ? "" : "\(ratio.label) "
    return "\(label)\(format(instructions: subject)) / \(format(instructions: baseline)) Ir = "
      + format(ratio: subject / baseline)
  }
  .joined(separator: ", ")
}

func json(_ report: Report) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  return try encoder.encode(report)
}
