// expect-error: is unavailable: register(_:handler:) passes the observer and the payload
//
// The same from a @MainActor class: Swift used to say "cannot infer type of closure parameter
// 'download' without a type annotation".
import Events

let downloads = Event<(String, Int)>()

@MainActor
final class Screen {
  var names: [String] = []

  func start() {
    downloads.register(self) { download in self.names.append(download.0) }
  }
}
