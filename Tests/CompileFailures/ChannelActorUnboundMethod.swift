// expect-error: 'register(_:priority:function:fileID:line:)' is unavailable: an actor's unbound method cannot be called off the actor
//
// 20.2 per key: an actor's own unbound method never converts to a function that can be called
// without the actor; the channel's diagnostic names the form to use, as `Event`'s does.
import Events

actor RateLimiter {
  func record(_ request: String) {}

  func start(_ requests: KeyedEvent<Int, String>, client: Int) {
    requests[client].register(self, function: Self.record)
  }
}
