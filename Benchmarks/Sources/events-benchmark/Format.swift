import Foundation

func format(_ value: Double) -> String {
  if value >= 100 { return String(Int(value.rounded())) }
  if value >= 10 { return String(format: "%.1f", value) }
  return String(format: "%.2f", value)
}

/// A time in `unit` (`ns`, `ns/post` or `ms`), scaled to a readable unit.
func format(_ value: Double, unit: String) -> String {
  guard unit.hasPrefix("ns") else { return "\(format(value)) \(unit)" }
  let suffix = unit.dropFirst(2)
  if value >= 1_000_000 { return "\(format(value / 1_000_000)) ms\(suffix)" }
  if value >= 1_000 { return "\(format(value / 1_000)) µs\(suffix)" }
  return "\(format(value)) ns\(suffix)"
}

func format(ratio: Double) -> String {
  String(format: "%.2fx", ratio)
}

/// A ratio below 1 as "how many times faster".
func format(speedup ratio: Double) -> String {
  String(format: "%.1fx", 1 / ratio)
}

func format(allocations: Double?) -> String {
  guard let allocations else { return "n/a" }
  if allocations == 0 { return "0" }
  if allocations < 0.01 { return String(format: "%.4f", allocations) }
  return format(allocations)
}

/// A count of instructions, rounded, with thousands separators: `4,512`.
func format(instructions: Double) -> String {
  let rounded = Int(instructions.rounded())
  var rest = rounded.magnitude
  var groups = [String]()
  repeat {
    let group = rest % 1000
    rest /= 1000
    groups.append(rest > 0 ? String(format: "%03d", Int(group)) : String(group))
  } while rest > 0
  return (rounded < 0 ? "-" : "") + groups.reversed().joined(separator: ",")
}
