// Beside RealityKit, the typed event is written with its module, through the umbrella import.
import Events
import RealityKit

struct Tapped: RealityKit.Event {}

final class Scene {
  let didTap = EventTyped.Event<String>()
}
