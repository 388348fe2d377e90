// The stand-in RealityKit still meets EventTyped's `Event`: in a type, the plain name is taken
// for RealityKit's protocol.
// expect-error: protocol 'Event' does not have primary associated types that can be constrained
import EventTyped
import RealityKit

final class Scene {
  let didTap: Event<String> = Event()
}
