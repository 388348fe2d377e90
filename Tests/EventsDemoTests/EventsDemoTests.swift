// Foundation has `Process` on macOS and Linux only: a test build for an iOS, tvOS, watchOS or
// visionOS simulator leaves these tests out.
#if os(macOS) || os(Linux)
  import Foundation
  import Testing

  /// Runs `events-demo` as a user would, one process per test.
  ///
  /// Serialized: each run measures its own timing, and on a small machine parallel runs would
  /// only compete for the same cores.
  @Suite("events-demo as a process", .serialized)
  struct EventsDemoTests {
    let demo: DemoProcess

    init() throws {
      demo = try DemoProcess()
    }

    @Test(
      "each subcommand exits 0 and prints the summary line its scenarios promise",
      arguments: [
        ("raii", "raii: 4 scenarios verified"),
        ("broadcast", "broadcast: 3 scenarios verified"),
        ("typed", "typed: 10 scenarios verified"),
        ("conditions", "conditions: 5 scenarios verified"),
      ])
    func subcommand(name: String, summary: String) async throws {
      let outcome = try await demo.run(name)
      #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
      #expect(outcome.stdout.split(separator: "\n").last.map(String.init) == summary)
      #expect(!outcome.stdout.contains("✗"), "a check failed:\n\(outcome.stdout)")
      #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
    }

    @Test("the default run shows all four demos, in order, in under 10 seconds")
    func defaultRun() async throws {
      let outcome = try await demo.run()
      #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
      let summaries = outcome.stdout.split(separator: "\n").filter {
        $0.hasSuffix("scenarios verified")
      }
      #expect(
        summaries == [
          "raii: 4 scenarios verified", "broadcast: 3 scenarios verified",
          "typed: 10 scenarios verified", "conditions: 5 scenarios verified",
        ])
      let last = try #require(outcome.stdout.split(separator: "\n").last)
      #expect(last.hasPrefix("events-demo: 4 of 4 demos verified in "))
      #expect(outcome.elapsed < .seconds(10))
    }

    @Test("the typed tour's keyed replies come back out of order, one times out, no key is left")
    func keyedReplies() async throws {
      let outcome = try await demo.run("typed")
      #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
      let lines = outcome.stdout.split(separator: "\n")
      let posts = lines.compactMap { line in
        line.firstMatch(of: /server posts the reply to (\d): it reached (\d)$/).map {
          "\($0.1):\($0.2)"
        }
      }
      #expect(posts == ["3:1", "1:1", "2:1"])
      #expect(lines.contains { $0.hasSuffix("request 4 timed out after 200 ms; its key is gone") })
      #expect(lines.contains { $0.hasSuffix("replies.keyCount is 0") })
      #expect(lines.contains { $0.hasSuffix("server posts the late reply to 4: it reached 0") })
    }

    @Test("every event line names the time and the queue or actor it ran on")
    func eventLines() async throws {
      let outcome = try await demo.run("raii")
      let places = outcome.stdout.split(separator: "\n").compactMap { line in
        line.firstMatch(of: /^ +\d+\.\d ms  (\S+(?: \S+)?) +  \S/)?.1
      }
      #expect(places.count >= 20)
      #expect(Set(places) == ["main actor", "raii.sensor", "raii.display"])
    }

    @Test("the same seed gives the same latencies, another seed others")
    func seededLatencies() async throws {
      func latencies(_ seed: String) async throws -> [Substring] {
        let outcome = try await demo.run("conditions", "--seed", seed)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        return outcome.stdout.split(separator: "\n").compactMap {
          $0.firstMatch(of: /latencies \(seed \d+\): .*/)?.0
        }
      }
      let first = try await latencies("7")
      #expect(first.count == 4)
      #expect(first.allSatisfy { $0.contains("(seed 7)") })
      #expect(try await latencies("7") == first)
      let other = try await latencies("8")
      #expect(other.count == 4)
      #expect(other.map { $0.replacing("(seed 8)", with: "(seed 7)") } != first)
    }

    @Test("an unknown subcommand exits 2 with a message on stderr naming it")
    func unknownSubcommand() async throws {
      let outcome = try await demo.run("frobnicate")
      #expect(outcome.status == 2)
      #expect(outcome.stderr.contains("unknown subcommand 'frobnicate'"))
      #expect(outcome.stdout.isEmpty)
    }

    @Test("a malformed seed exits 2 and says what is wrong")
    func malformedSeed() async throws {
      let missing = try await demo.run("conditions", "--seed")
      #expect(missing.status == 2)
      #expect(missing.stderr.contains("--seed needs a value"))
      let negative = try await demo.run("--seed", "-3")
      #expect(negative.status == 2)
      #expect(negative.stderr.contains("not '-3'"))
    }

    @Test("--help exits 0 and lists every subcommand and the seed option")
    func help() async throws {
      for flag in ["--help", "-h"] {
        let outcome = try await demo.run(flag)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("USAGE: events-demo"))
        for word in ["raii", "broadcast", "typed", "conditions", "--seed <n>"] {
          #expect(outcome.stdout.contains(word), "\(word) missing from --help")
        }
        #expect(outcome.stderr.isEmpty)
      }
    }
  }
#endif
