import Foundation

/// SVG charts of a run, drawn from its results with nothing but string building, so that the
/// docs can show the figures without a plotting tool.
///
/// `delivery.svg`: time per observer against the number of observers, both axes logarithmic,
/// one line per Events module, Foundation and baseline. `churn.svg`: one registration and its
/// end with 1,000 others, and the many-threads scenario, as bars beside Foundation's.
enum Charts {
  /// Writes every chart into `directory`, creating it if needed.
  ///
  /// - Returns: The paths written.
  static func write(_ report: Report, to directory: String) throws -> [String] {
    let url = URL(fileURLWithPath: directory, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let charts = [
      ("delivery.svg", delivery(report.results)), ("churn.svg", churnAndProgress(report.results)),
    ]
    return try charts.map { name, svg in
      let file = url.appendingPathComponent(name)
      try Data(svg.utf8).write(to: file)
      return file.path
    }
  }

  /// A line of the delivery chart.
  struct Series {
    let family: String
    let label: String
    let color: String
    /// Baselines and Foundation are dashed, Events' modules solid.
    let dashed: Bool
  }

  static let deliverySeries = [
    Series(
      family: "event.subscribe", label: "EventTyped subscribe", color: "#1f5fbf", dashed: false),
    Series(family: "event.function", label: "EventTyped register", color: "#4f9be8", dashed: false),
    Series(
      family: "broadcaster.notify", label: "EventBroadcast notify", color: "#2a9d4b", dashed: false),
    Series(family: "raii.observe", label: "EventRAII observe", color: "#8e44ad", dashed: false),
    Series(
      family: "raii.object", label: "EventRAII, object filter", color: "#c27ce0", dashed: false),
    Series(family: "nc.block", label: "NotificationCenter", color: "#d9480f", dashed: true),
    Series(
      family: "nc.object", label: "NotificationCenter, object filter", color: "#f59f00",
      dashed: true),
    Series(family: "baseline.mutex", label: "Mutex snapshot", color: "#555555", dashed: true),
    Series(family: "baseline.weak", label: "Mutex weak boxes", color: "#999999", dashed: true),
  ]

  /// Time per observer (ns) against N (1 to 1,000), log–log.
  static func delivery(_ results: [CaseResult]) -> String {
    let counts = [1, 10, 100, 1000]
    let lines = deliverySeries.compactMap { series -> (Series, [(Int, Double)])? in
      let points = counts.compactMap { n -> (Int, Double)? in
        guard let result = results.first(where: { $0.id == "\(series.family)/\(n)" }),
          let perObserver = result.perObserver, perObserver > 0
        else { return nil }
        return (n, perObserver)
      }
      return points.isEmpty ? nil : (series, points)
    }
    let (width, height) = (760.0, 440.0)
    let plot = (left: 70.0, top: 40.0, right: 470.0, bottom: 380.0)
    let values = lines.flatMap { $0.1.map(\.1) }
    let low = pow(10, floor(log10(values.min() ?? 1)))
    let high = pow(10, ceil(log10(values.max() ?? 1000)))
    func x(_ n: Int) -> Double {
      plot.left + (plot.right - plot.left) * log10(Double(n)) / 3
    }
    func y(_ value: Double) -> Double {
      plot.bottom - (plot.bottom - plot.top) * (log10(value) - log10(low))
        / (log10(high) - log10(low))
    }
    var svg = header(width: width, height: height)
    svg += text(
      "Time per observer of one post (log scale; lower is faster)", x: plot.left, y: 24,
      size: 15, weight: "bold")
    // Grid and axes.
    var decade = low
    while decade <= high * 1.001 {
      svg += line(plot.left, y(decade), plot.right, y(decade), color: "#e3e3e3")
      svg += text(
        decadeLabel(decade), x: plot.left - 8, y: y(decade) + 4, anchor: "end", size: 11)
      decade *= 10
    }
    for n in counts {
      svg += line(x(n), plot.top, x(n), plot.bottom, color: "#e3e3e3")
      svg += text(
        n.formatted(), x: x(n), y: plot.bottom + 18, anchor: "middle", size: 11)
    }
    svg += text(
      "observers (N)", x: (plot.left + plot.right) / 2, y: plot.bottom + 38, anchor: "middle",
      size: 12)
    svg +=
      "<rect x=\"\(plot.left)\" y=\"\(plot.top)\" width=\"\(plot.right - plot.left)\" "
      + "height=\"\(plot.bottom - plot.top)\" fill=\"none\" stroke=\"#888\"/>\n"
    for (series, points) in lines {
      let path = points.map { "\(fixed(x($0.0))),\(fixed(y($0.1)))" }.joined(separator: " ")
      let dash = series.dashed ? " stroke-dasharray=\"6 4\"" : ""
      svg +=
        "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(series.color)\" "
        + "stroke-width=\"2.2\"\(dash)/>\n"
      for point in points {
        svg +=
          "<circle cx=\"\(fixed(x(point.0)))\" cy=\"\(fixed(y(point.1)))\" r=\"3.2\" "
          + "fill=\"\(series.color)\"/>\n"
      }
    }
    // Legend, with each series' value at the largest N it has.
    svg += text("Per observer at N = 1,000:", x: 490, y: plot.top + 4, size: 11, weight: "bold")
    for (index, (series, points)) in lines.enumerated() {
      let top = plot.top + 24 + Double(index) * 24
      let dash = series.dashed ? " stroke-dasharray=\"6 4\"" : ""
      svg +=
        "<line x1=\"490\" y1=\"\(top)\" x2=\"516\" y2=\"\(top)\" stroke=\"\(series.color)\" "
        + "stroke-width=\"2.2\"\(dash)/>\n"
      let last = points.last.map { ": \(format($0.1, unit: "ns"))" } ?? ""
      svg += text(series.label + last, x: 522, y: top + 4, size: 11)
    }
    return svg + "</svg>\n"
  }

  /// Bars of one registration and its end with 1,000 others, and of 1,000 work items each
  /// registering and notifying from the global queue, beside Foundation's.
  static func churnAndProgress(_ results: [CaseResult]) -> String {
    let churn: [(String, String, String)] = [
      ("churn.nc", "NotificationCenter add + remove", "#d9480f"),
      ("churn.subscribe", "EventTyped subscribe + cancel", "#1f5fbf"),
      ("churn.register", "EventTyped register + unregister", "#4f9be8"),
      ("churn.broadcaster", "EventBroadcast register + unregister", "#2a9d4b"),
      ("churn.raii", "EventRAII observe + cancel", "#8e44ad"),
    ]
    let progress: [(String, String, String)] = [
      ("progress.nc", "NotificationCenter", "#d9480f"),
      ("progress.event", "EventTyped", "#1f5fbf"),
      ("progress.broadcaster", "EventBroadcast", "#2a9d4b"),
    ]
    let (width, height) = (760.0, 400.0)
    var svg = header(width: width, height: height)
    svg += panel(
      "Register and end one observer, 1,000 others (ns)", bars: churn, results: results,
      suffix: "/1000", unit: "ns", top: 20)
    svg += panel(
      "1,000 work items on the global queue, each registers and notifies all (ms)",
      bars: progress, results: results, suffix: "", unit: "ms", top: 240)
    return svg + "</svg>\n"
  }

  private static func panel(
    _ title: String, bars: [(String, String, String)], results: [CaseResult], suffix: String,
    unit: String, top: Double
  ) -> String {
    let measured = bars.compactMap { id, label, color -> (String, String, Double)? in
      results.first { $0.id == id + suffix }.map { (label, color, $0.statistic.median) }
    }
    let longest = measured.map(\.2).max() ?? 1
    let (left, right) = (270.0, 660.0)
    var svg = text(title, x: 20, y: top + 4, size: 14, weight: "bold")
    for (index, (label, color, value)) in measured.enumerated() {
      let y = top + 18 + Double(index) * 28
      let length = (right - left) * value / longest
      svg += text(label, x: left - 8, y: y + 15, anchor: "end", size: 12)
      svg +=
        "<rect x=\"\(left)\" y=\"\(fixed(y))\" width=\"\(fixed(length))\" height=\"20\" "
        + "fill=\"\(color)\"/>\n"
      svg += text(format(value, unit: unit), x: left + length + 6, y: y + 15, size: 12)
    }
    return svg
  }

  /// A power of ten of nanoseconds, as an axis label: 1 ns, 10 ns, 100 ns, 1 µs...
  private static func decadeLabel(_ nanoseconds: Double) -> String {
    let units = [(1e6, "ms"), (1e3, "µs"), (1, "ns")]
    let (scale, unit) = units.first { nanoseconds >= $0.0 } ?? (1, "ns")
    return "\(Int((nanoseconds / scale).rounded())) \(unit)"
  }

  private static func header(width: Double, height: Double) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
      + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
      + "font-family=\"-apple-system, Helvetica, Arial, sans-serif\">\n"
      + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
  }

  private static func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String
  ) -> String {
    "<line x1=\"\(fixed(x1))\" y1=\"\(fixed(y1))\" x2=\"\(fixed(x2))\" y2=\"\(fixed(y2))\" "
      + "stroke=\"\(color)\"/>\n"
  }

  private static func text(
    _ content: String, x: Double, y: Double, anchor: String = "start", size: Int,
    weight: String = "normal"
  ) -> String {
    let escaped =
      content.replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "<", with: "&lt;")
    return "<text x=\"\(fixed(x))\" y=\"\(fixed(y))\" text-anchor=\"\(anchor)\" "
      + "font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"#222\">\(escaped)</text>\n"
  }

  private static func fixed(_ value: Double) -> String {
    String(format: "%.1f", value)
  }
}
