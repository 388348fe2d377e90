import Events

/// `NotificationReceiver.check` arrivals, uncontended. N is the number of conditioners in the
/// receiver's set.
func conditionsCases() -> [BenchmarkCase] {
  observerCounts.flatMap { n -> [BenchmarkCase] in
    [
      BenchmarkCase(
        "receiver.check", observers: n, perObserver: false,
        title: "EventConditions NotificationReceiver.check(name): one arrival that does not "
          + "complete the set (N conditioners, minCount 1,000,000,000; N=0: a name not in the set)",
        body: .loop {
          let receiver = NotificationReceiver()
          for index in 0..<n {
            receiver.add(NotificationConditioner("c\(index)", minCount: 1_000_000_000))
          }
          return Loop { iterations in
            for _ in 0..<iterations { receiver.check("c0") }
          }
        }),
      BenchmarkCase(
        "receiver.complete", observers: n, perObserver: false,
        title: "EventConditions NotificationReceiver.check(name): arrivals that complete the set "
          + "every N-th call, firing one onVerified handler and re-arming",
        body: .loop {
          let receiver = NotificationReceiver()
          let names = (0..<max(n, 1)).map { "c\($0)" }
          for name in names where n > 0 { receiver.add(NotificationConditioner(name)) }
          let token = receiver.onVerified { handler(1) }
          return Loop { iterations in
            var index = 0
            for _ in 0..<iterations {
              receiver.check(names[index])
              index += 1
              if index == names.count { index = 0 }
            }
            withExtendedLifetime(token) {}
          }
        }),
    ]
  }
}
