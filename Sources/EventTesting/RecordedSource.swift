import EventCore
import EventTyped

/// What the EventTesting APIs record and flush: an ``/EventTyped/Event`` or one key of a
/// ``/EventTyped/KeyedEvent`` (its ``/EventTyped/KeyedEvent/Channel``). Each public form that
/// takes one is a thin entry point into the shared code written against this.
protocol RecordedSource<Payload>: Sendable {
  associatedtype Payload: Sendable

  /// Registers a passive observer: it runs on the posting thread for every post from now on,
  /// and is left out of every count, hold and observation change of the code under test.
  func tap(_ handler: @escaping @Sendable (Payload) -> Void) -> Subscription

  /// Waits for every delivery of the posts made so far.
  func flush() async
}

extension Event: RecordedSource {}

extension KeyedEvent.Channel: RecordedSource {}
