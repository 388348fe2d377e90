// expect-error: expression of type 'Int' is unused
//
// The same through a detached task's value.
import Events

func post(_ event: Event<Int>) async {
  await Task.detached { event.post(1) }.value
}
