import Events
import Foundation
import MallocCounter

/// Synchronous delivery through each Events module.
func eventsDeliveryCases() -> [BenchmarkCase] {
  observerCounts.flatMap { n -> [BenchmarkCase] in
    [
      BenchmarkCase(
        "event.subscribe", observers: n,
        title: "EventTyped Event<Int>.post to token-held closures (subscribe)",
        comparisons: .delivery,
        body: .loop {
          let event = Event<Int>()
          let tokens = (0..<n).map { _ in event.subscribe { bench_consume($0) } }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            withExtendedLifetime(tokens) {}
          }
        }),
      BenchmarkCase(
        "event.function", observers: n,
        title: "EventTyped Event<Int>.post to weak observers, register(_:function:)",
        comparisons: .delivery,
        body: .loop {
          let event = Event<Int>()
          let targets = makeTargets(n)
          for target in targets { event.register(target, function: Target.receive) }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            withExtendedLifetime(targets) {}
          }
        }),
      BenchmarkCase(
        "event.function.opaque", observers: n,
        title: "EventTyped register(_:function:) made where the method is not known (a function "
          + "value passed through a non-inlined generic function)",
        comparisons: .delivery,
        body: .loop {
          let event = Event<Int>()
          let targets = makeTargets(n)
          for target in targets { registerOpaquely(event, target, Target.receive) }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            withExtendedLifetime(targets) {}
          }
        }),
      BenchmarkCase(
        "event.handler", observers: n,
        title: "EventTyped Event<Int>.post to weak observers, register(_:handler:)",
        comparisons: .delivery,
        body: .loop {
          let event = Event<Int>()
          let targets = makeTargets(n)
          for target in targets {
            event.register(target) { target, value in target.receive(value) }
          }
          return Loop { iterations in
            for value in 0..<iterations { event.post(value) }
            withExtendedLifetime(targets) {}
          }
        }),
      BenchmarkCase(
        "broadcaster.notify", observers: n,
        title: "EventBroadcast Broadcaster.notify to weak protocol observers",
        comparisons: .delivery,
        body: .loop {
          let broadcaster = Broadcaster()
          let targets = makeTargets(n)
          for target in targets { broadcaster.register((any BenchObserver).self, observer: target) }
          return Loop { iterations in
            // A body that captures nothing. It still costs one allocation per notify: an
            // escaping `@isolated(any)` closure keeps its isolation in a context of its own.
            for _ in 0..<iterations {
              broadcaster.notify((any BenchObserver).self) { $0.receive(1) }
            }
            withExtendedLifetime(targets) {}
          }
        }),
      BenchmarkCase(
        "raii.observe", observers: n,
        title: "EventRAII NotificationCenter.observe, post(name:object:)",
        comparisons: .delivery,
        body: .loop {
          let center = NotificationCenter()
          let tokens = (0..<n).map { _ in center.observe(benchName) { _ in bench_consume(1) } }
          return Loop { iterations in
            for _ in 0..<iterations { center.post(name: benchName, object: nil) }
            withExtendedLifetime(tokens) {}
          }
        }),
      BenchmarkCase(
        "raii.object", observers: n,
        title: "EventRAII NotificationCenter.observe filtered by object:",
        comparisons: .filteredDelivery,
        body: .loop {
          let center = NotificationCenter()
          let sender = NSObject()
          let tokens = (0..<n).map { _ in
            center.observe(benchName, object: sender) { _ in bench_consume(1) }
          }
          return Loop { iterations in
            for _ in 0..<iterations { center.post(name: benchName, object: sender) }
            withExtendedLifetime(tokens) {}
          }
        }),
    ]
  }
}

/// Registers `function` where the optimizer cannot see which method it is, as a library or a
/// registration helper of an app would.
@inline(never)
func registerOpaquely<Observer: AnyObject & Sendable>(
  _ event: Event<Int>, _ observer: Observer, _ function: @escaping (Observer) -> (Int) -> Void
) {
  event.register(observer, function: function)
}

/// EventRAII's `object:` filter with 1,000 observers, each of a different sender; one post from
/// one of them.
func raiiSenderCases() -> [BenchmarkCase] {
  let senders = 1000
  return [
    BenchmarkCase(
      "raii.others", observers: senders, perObserver: false,
      title: "EventRAII: 1,000 observers each filtered by a different sender, one post",
      comparisons: Comparisons(foundation: "nc.others"),
      body: .loop {
        let center = NotificationCenter()
        let objects = (0..<senders).map { _ in NSObject() }
        let tokens = objects.map { sender in
          center.observe(benchName, object: sender) { _ in bench_consume(1) }
        }
        let sender = objects[senders / 2]
        return Loop { iterations in
          for _ in 0..<iterations { center.post(name: benchName, object: sender) }
          withExtendedLifetime((tokens, objects)) {}
        }
      })
  ]
}

/// One registration and its end, with 1,000 others registered on the same channel.
func churnCases() -> [BenchmarkCase] {
  let others = 1000
  let againstFoundation = Comparisons(foundation: "churn.nc")
  return [
    BenchmarkCase(
      "churn.nc", observers: others, perObserver: false,
      title: "Foundation addObserver(forName:object:queue:using:) + removeObserver",
      body: .loop {
        let center = NotificationCenter()
        let tokens = (0..<others).map { _ in
          center.addObserver(forName: benchName, object: nil, queue: nil) { _ in }
        }
        return Loop { iterations in
          for _ in 0..<iterations {
            let token = center.addObserver(forName: benchName, object: nil, queue: nil) { _ in }
            center.removeObserver(token)
          }
          withExtendedLifetime(tokens) {}
        }
      }),
    BenchmarkCase(
      "churn.subscribe", observers: others, perObserver: false,
      title: "EventTyped Event.subscribe + Subscription.cancel",
      comparisons: againstFoundation,
      body: .loop {
        let event = Event<Int>()
        let tokens = (0..<others).map { _ in event.subscribe { bench_consume($0) } }
        return Loop { iterations in
          for _ in 0..<iterations { event.subscribe { bench_consume($0) }.cancel() }
          withExtendedLifetime(tokens) {}
        }
      }),
    BenchmarkCase(
      "churn.register", observers: others, perObserver: false,
      title: "EventTyped Event.register(_:function:) + unregister",
      comparisons: againstFoundation,
      body: .loop {
        let event = Event<Int>()
        let targets = makeTargets(others)
        for target in targets { event.register(target, function: Target.receive) }
        let target = Target()
        return Loop { iterations in
          for _ in 0..<iterations {
            event.register(target, function: Target.receive)
            event.unregister(target)
          }
          withExtendedLifetime(targets) {}
        }
      }),
    BenchmarkCase(
      "churn.handler", observers: others, perObserver: false,
      title: "EventTyped Event.register(_:handler:) + unregister",
      comparisons: againstFoundation,
      body: .loop {
        let event = Event<Int>()
        let targets = makeTargets(others)
        for target in targets {
          event.register(target) { target, value in target.receive(value) }
        }
        let target = Target()
        return Loop { iterations in
          for _ in 0..<iterations {
            event.register(target) { target, value in target.receive(value) }
            event.unregister(target)
          }
          withExtendedLifetime(targets) {}
        }
      }),
    BenchmarkCase(
      "churn.broadcaster", observers: others, perObserver: false,
      title: "EventBroadcast Broadcaster.register + unregister",
      comparisons: againstFoundation,
      body: .loop {
        let broadcaster = Broadcaster()
        let targets = makeTargets(others)
        for target in targets { broadcaster.register((any BenchObserver).self, observer: target) }
        let target = Target()
        return Loop { iterations in
          for _ in 0..<iterations {
            broadcaster.register((any BenchObserver).self, observer: target)
            broadcaster.unregister((any BenchObserver).self, observer: target)
          }
          withExtendedLifetime(targets) {}
        }
      }),
    BenchmarkCase(
      "churn.raii", observers: others, perObserver: false,
      title: "EventRAII NotificationCenter.observe + Subscription.cancel",
      comparisons: againstFoundation,
      body: .loop {
        let center = NotificationCenter()
        let tokens = (0..<others).map { _ in center.observe(benchName) { _ in } }
        return Loop { iterations in
          for _ in 0..<iterations { center.observe(benchName) { _ in }.cancel() }
          withExtendedLifetime(tokens) {}
        }
      }),
  ]
}

/// A registration change and the post that follows it, with 1,000 observers: what a server that
/// subscribes, posts and cancels per request pays, compared with a snapshot's post alone.
func churnPostCases() -> [BenchmarkCase] {
  let others = 1000
  return [
    BenchmarkCase(
      "churn.post.subscribe", observers: others, perObserver: false,
      title: "EventTyped Event.subscribe + Subscription.cancel, then one Event.post to 1,000 "
        + "token-held closures",
      comparisons: Comparisons(mutex: "baseline.mutex"),
      body: .loop {
        let event = Event<Int>()
        let tokens = (0..<others).map { _ in event.subscribe { bench_consume($0) } }
        return Loop { iterations in
          for value in 0..<iterations {
            event.subscribe { bench_consume($0) }.cancel()
            event.post(value)
          }
          withExtendedLifetime(tokens) {}
        }
      }),
    BenchmarkCase(
      "churn.post.broadcaster", observers: others, perObserver: false,
      title: "EventBroadcast Broadcaster.register + unregister, then one notify to 1,000 "
        + "weak observers",
      comparisons: Comparisons(weak: "baseline.weak"),
      body: .loop {
        let broadcaster = Broadcaster()
        let targets = makeTargets(others)
        for target in targets { broadcaster.register((any BenchObserver).self, observer: target) }
        let target = Target()
        return Loop { iterations in
          for _ in 0..<iterations {
            broadcaster.register((any BenchObserver).self, observer: target)
            broadcaster.unregister((any BenchObserver).self, observer: target)
            broadcaster.notify((any BenchObserver).self) { $0.receive(1) }
          }
          withExtendedLifetime((targets, target)) {}
        }
      }),
  ]
}
