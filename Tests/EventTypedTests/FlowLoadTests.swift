import EventCore
import EventTestSupport
import EventTyped
import Foundation
import Testing

/// Three threads posting 1 KiB payloads as fast as they can to one main-actor observer: the
/// load under which an unbounded backlog once reached 2.3 GB. Each case runs in a process of
/// its own (an exit test), so that its memory is its own and not the suites' running beside it.
@Suite("Flow under load: three threads flooding a main-actor observer")
struct FlowLoadTests {
  @Test(
    "with .dropOldest(1_000), heap use stays within 50 MB for 2 s and posted == delivered + dropped"
  )
  func boundedFlood() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let event = Event<[UInt8]>(delivery: .mainActor, backlog: .dropOldest(1_000))
      let delivered = Counter()
      let dropped = Counter()
      let posted = Counter()
      let token = event.subscribe { _ in delivered.increment() }
      let dropToken = event.drops.subscribe { dropped.add($0.count) }
      let start = HeapUsage.bytesInUse
      let peak = Counter()
      let sampling = Signal()
      Thread {
        while !sampling.wait(seconds: 0.01) {
          let grown = HeapUsage.bytesInUse - start
          if grown > peak.count { peak.add(grown - peak.count) }
        }
      }.start()
      let post: @Sendable () -> Void = {
        event.post([UInt8](repeating: 1, count: 1_024))
        posted.increment()
      }
      let finished = runThreads([post, post, post], seconds: 2)
      sampling.fire()
      await event.flush()
      withExtendedLifetime((token, dropToken)) {}
      let line =
        "posted \(posted.count), delivered \(delivered.count), dropped \(dropped.count), "
        + "peak growth \(peak.count / 1_000_000) MB"
      FileHandle.standardError.write(Data((line + "\n").utf8))
      guard finished, posted.count == delivered.count + dropped.count,
        peak.count <= 50_000_000 || Sanitizers.isActive
      else { exit(1) }
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("posted"), "\(output)")
  }

  @Test("with .unbounded, the backlog warning is printed once, naming the registration's site")
  func unboundedFloodWarns() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let event = Event<[UInt8]>(delivery: .mainActor)
      let warned = Signal()
      let printed = Counter()
      event.writeFlowWarnings { line in
        FileHandle.standardError.write(Data(line.utf8))
        if printed.increment() == 1 { warned.fire() }
      }
      let token = event.subscribe { _ in }
      // Three threads flood until the warning. The main actor is held until then, so that the
      // backlog passes the threshold however slow the machine (ThreadSanitizer) or fast the
      // main actor.
      let stopped = Counter()
      let flooding = DispatchGroup()
      for _ in 0..<3 {
        flooding.enter()
        Thread {
          while stopped.count == 0 { event.post([UInt8](repeating: 1, count: 1_024)) }
          flooding.leave()
        }.start()
      }
      let release = Signal()
      DispatchQueue.main.async { _ = release.wait(seconds: 60) }
      let sawWarning = await warned.arrival(seconds: 60)
      stopped.increment()
      release.fire()
      let finished = sawWarning && flooding.wait(timeout: .now() + 60) == .success
      await event.flush()
      withExtendedLifetime(token) {}
      guard finished, printed.count == 1 else { exit(1) }
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.components(separatedBy: "EventDiagnostics.backlogWarning").count == 2)
    #expect(output.contains("FlowLoadTests.swift:"))
  }
}
