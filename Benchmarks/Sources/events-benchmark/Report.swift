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
func table(_ report: Report) -> String {
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
    lines += ["", "| Issue | Target | Met | Figures |", "|--:|---|---|---|"]
    for check in report.targets {
      let met = check.met.map { $0 ? "yes" : "**no**" } ?? "not run"
      lines.append("| \(check.issue) | \(check.target) | \(met) | \(check.detail) |")
    }
  }
  return lines.joined(separator: "\n")
}

func json(_ report: Report) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  return try encoder.encode(report)
}
