// expect: compiles
//
// A known hole, described in the "What compiles where" article (SoundIsolation.md): a name that mixes
// `.init("…")` with an optional reaches the nonisolated target-action form, and a `@MainActor`
// method registered from nonisolated code compiles. If this stops compiling, Swift has closed
// it: say so there.
import Events
import Foundation

@MainActor final class Screen {
  func refresh(_ note: Notification) {}
}

func wire(_ center: NotificationCenter, to screen: Screen, any: Bool) -> Subscription {
  center.observe(any ? nil : .init("ModelDidChange"), target: screen, action: Screen.refresh)
}
