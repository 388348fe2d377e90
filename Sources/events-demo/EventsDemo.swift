import Foundation

/// `events-demo`: shows what each module of Events is for, with real threads and real
/// `NotificationCenter` posts.
///
/// The entry point is `async` so that the main actor runs (on the main queue, on Linux too) and
/// `.mainActor` deliveries reach it while the demo awaits.
@main
struct EventsDemo {
  static func main() async {
    let command: Command
    do {
      command = try Command(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
      FileHandle.standardError.write(
        Data("events-demo: \(error.message)\nRun 'events-demo --help' for usage.\n".utf8))
      exit(2)
    }
    switch command {
    case .help:
      print(Command.usage)
    case .run(let demos, let seed):
      DemoLog.startClock()
      var passed = 0
      for demo in demos {
        let verified = await demo.run(seed: seed)
        if verified { passed += 1 }
      }
      if demos.count > 1 {
        let elapsed = String(format: "%.0f", DemoLog.elapsedMilliseconds)
        DemoLog.plain("\nevents-demo: \(passed) of \(demos.count) demos verified in \(elapsed) ms")
      }
      if passed < demos.count { exit(1) }
    }
  }
}

/// The demos, in the order the default run shows them.
enum DemoName: String, CaseIterable {
  case raii, broadcast, typed, conditions

  /// What the demo shows, for `--help`.
  var summary: String {
    switch self {
    case .raii: "EventRAII: observers that end with their token or their owner"
    case .broadcast: "EventBroadcast: a keyboard notification becomes a typed protocol call"
    case .typed:
      "EventTyped: typed events, queues, async streams, gates, replay, async handlers, "
        + "keyed replies"
    case .conditions: "EventConditions: act once three requests have all arrived"
    }
  }

  /// Runs the demo and prints its summary line.
  ///
  /// - Returns: Whether every scenario was verified.
  @MainActor
  func run(seed: UInt64) async -> Bool {
    switch self {
    case .raii: await RAIIDemo.run()
    case .broadcast: await BroadcastDemo.run()
    case .typed: await TypedDemo.run()
    case .conditions: await ConditionsDemo.run(seed: seed)
    }
  }
}

/// What the command line asks for.
enum Command {
  case help
  case run([DemoName], seed: UInt64)

  static let defaultSeed: UInt64 = 42

  static let usage = """
    USAGE: events-demo [<subcommand>...] [--seed <n>]

    Shows what each module of Events is for, with real threads and real NotificationCenter
    posts. Each line is one event: milliseconds since the start, the queue or thread it ran on
    ("main actor" for the main actor), and what happened. Each demo ends with a summary line.

    SUBCOMMANDS:
    \(subcommandList)
      (none)      run all four, in this order

    OPTIONS:
      --seed <n>  seed for the simulated request latencies of `conditions`
                  (a non-negative integer; default \(defaultSeed))
      -h, --help  show this help

    EXIT STATUS: 0 when every scenario was verified, 1 when one was not, 2 for a usage error.
    """

  private static var subcommandList: String {
    DemoName.allCases.map { demo in
      "  " + demo.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + demo.summary
    }.joined(separator: "\n")
  }

  /// A command line that does not make sense.
  struct UsageError: Error {
    let message: String
  }

  /// Parses the arguments after the program's name.
  init(arguments: [String]) throws(UsageError) {
    var demos: [DemoName] = []
    var seed = Self.defaultSeed
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help", "help":
        self = .help
        return
      case "--seed":
        guard let value = remaining.popFirst() else {
          throw UsageError(message: "--seed needs a value, such as --seed 7")
        }
        seed = try Self.seed(value)
      case _ where argument.hasPrefix("--seed="):
        seed = try Self.seed(String(argument.dropFirst("--seed=".count)))
      case _ where argument.hasPrefix("-"):
        throw UsageError(message: "unknown option '\(argument)'")
      default:
        guard let demo = DemoName(rawValue: argument) else {
          let known = DemoName.allCases.map(\.rawValue).joined(separator: ", ")
          throw UsageError(message: "unknown subcommand '\(argument)' (expected one of: \(known))")
        }
        if !demos.contains(demo) { demos.append(demo) }
      }
    }
    self = .run(demos.isEmpty ? DemoName.allCases : demos, seed: seed)
  }

  private static func seed(_ text: String) throws(UsageError) -> UInt64 {
    guard let seed = UInt64(text) else {
      throw UsageError(message: "--seed takes a non-negative integer, not '\(text)'")
    }
    return seed
  }
}
