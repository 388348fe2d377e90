// expect-error: 'register(_:priority:function:fileID:line:)' is unavailable: an actor's unbound method cannot be called off the actor
//
// 20.2: an actor's own unbound method never converts to a function that can be called without
// the actor; the diagnostic names the form to use.
import Events

actor RateLimiter {
  func record(_ request: String) {}

  func start(_ requests: Event<String>) {
    requests.register(self, function: Self.record)
  }
}
