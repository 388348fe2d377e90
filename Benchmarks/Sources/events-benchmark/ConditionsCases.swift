/// `NotificationReceiver.check` arrivals: added once EventConditions is merged.
func conditionsCases() -> [BenchmarkCase] {
  []
}
