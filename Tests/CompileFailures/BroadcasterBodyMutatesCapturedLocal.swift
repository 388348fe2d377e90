// expect-error: mutation of captured var 'calls' in concurrently-executing code
//
// 22.2: notify's body escapes and is `@Sendable` (it may run later, on another thread or
// actor), so a body that mutates a captured local no longer compiles in Swift 6 mode (Swift 5:
// a warning). Count through a lock, an atomic or an actor instead.
import Events

protocol Update {
  func refresh()
}

func countObservers() -> Int {
  var calls = 0
  Broadcaster.notify((any Update).self) { _ in calls += 1 }
  return calls
}
