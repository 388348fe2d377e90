// expect: compiles
//
// The documented form for a closure whose only statement is a post: discard the count inside
// it (Docs/Events.docc/DeliveryAndThreading.md, "Posting from a queue or a detached task").
import Dispatch
import Events

func post(_ event: Event<Int>) async {
  DispatchQueue.global().sync { _ = event.post(1) }
  await Task.detached { _ = event.post(2) }.value
}
