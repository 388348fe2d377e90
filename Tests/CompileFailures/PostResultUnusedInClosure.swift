// expect-error: result of call to 'sync(execute:)' is unused
//
// A closure whose only statement is a post returns post's count, which DispatchQueue.sync hands
// back unused: a warning, so an error with warnings as errors. The documented form is in
// CompilesPostInClosure.swift.
import Dispatch
import Events

func post(_ event: Event<Int>) {
  DispatchQueue.global().sync { event.post(1) }
}
