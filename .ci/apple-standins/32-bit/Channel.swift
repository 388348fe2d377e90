// Stand-ins for EventBroadcast's Channel, which ChannelIndex stores only as a pointer, and for
// the shared route it keeps per observer type (compared through its observer's type only).
final class Channel {}

struct UnretainedObserver {
  func hasSameType(as other: UnretainedObserver) -> Bool { true }
}

final class ObserverRoute {
  let observer: UnretainedObserver
  init(observer: UnretainedObserver) { self.observer = observer }
}
