// expect-error: is unavailable: register(_:handler:) passes the observer and the payload
//
// A one-parameter closure registered with an observer, as if it got the payload alone: Swift
// used to match it to `function:` and say "cannot convert value of type '()' to closure result
// type '@MainActor @Sendable (String, Int) -> Void'".
import Events

let downloads = Event<(String, Int)>()

final class Screen: Sendable {
  func start() {
    downloads.register(self) { download in print(download.0) }
  }
}
