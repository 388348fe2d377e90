import EventCore
import Synchronization

extension Event {
  /// The errors thrown by this event's throwing handlers, each with where its registration was
  /// written.
  ///
  /// ```swift
  /// Inbox.didReceive.subscribe { message in try store.save(message) }
  ///   .store(in: &subscriptions)
  /// Inbox.didReceive.errors.subscribe { failure in log.error("\(failure)") }
  ///   .store(in: &subscriptions)
  /// ```
  ///
  /// A handler registered with a throwing closure (``subscribe(priority:_:fileID:line:)-6uz27``,
  /// ``register(_:priority:handler:fileID:line:)-2wmxf``,
  /// ``register(_:priority:handler:fileID:line:)-13tcv`` or the async
  /// ``subscribe(priority:_:fileID:line:)-2ru7c``) that throws does not stop the
  /// post: the other handlers still run, and the error is posted here, as a ``HandlerError``,
  /// on the thread (or actor) where the handler threw, before the post goes on.
  ///
  /// While nothing observes `errors`, the error is printed to standard error instead, with
  /// where the registration was written, once per registration: later errors of the same
  /// registration print nothing, so a handler that fails at every post does not flood the
  /// output. An error thrown by a handler of `errors` goes to that event's own `errors`, never
  /// back to the same channel, so a handler that always throws cannot loop.
  ///
  /// Created when first read; an event whose handlers never throw pays nothing on its posts.
  /// Thread-safe.
  public var errors: Event<HandlerError> {
    errorChannel.errors
  }

  /// Where a registration written at `fileID`:`line` reports what its handler throws.
  func throwSite(fileID: StaticString, line: UInt) -> ThrowSite {
    ThrowSite(errors: errorChannel, fileID: fileID, line: line)
  }

  /// Sends the standard-error messages of this event's unobserved handler errors to `write`
  /// instead, so that tests can read them.
  package func writeUnobservedErrors(to write: @escaping @Sendable (String) -> Void) {
    errorChannel.withLock { $0.print = write }
  }
}

/// An event's ``Event/errors`` channel, created when first read, and where the errors go while
/// nobody observes it.
@usableFromInline struct ErrorChannel: Sendable {
  var channel: Event<HandlerError>?
  var print: @Sendable (String) -> Void = StandardError.emit

  @usableFromInline init() {}
}

extension Lock where State == ErrorChannel {
  /// The channel's ``Event/errors``, made by the first read.
  var errors: Event<HandlerError> {
    withLock { state in
      if let channel = state.channel { return channel }
      let channel = Event<HandlerError>()
      state.channel = channel
      return channel
    }
  }
}

/// What a throwing registration keeps to report its handler's errors: its event's error
/// channel (not the event, which holds the registration), where it was written, and whether it
/// has printed already.
///
/// One per registration, made when it registers: a post that throws nothing costs nothing.
final class ThrowSite: Sendable {
  private let errors: Lock<ErrorChannel>
  private let fileID: StaticString
  private let line: UInt
  private let printed = Atomic<Bool>(false)

  init(errors: Lock<ErrorChannel>, fileID: StaticString, line: UInt) {
    self.errors = errors
    self.fileID = fileID
    self.line = line
  }

  /// Posts `error` to the event's ``Event/errors`` if anything observes it, or else prints it,
  /// the first time only. Runs outside every lock, on the thread that ran the handler.
  func report(_ error: any Error) {
    let (channel, print) = errors.withLock { ($0.channel, $0.print) }
    let failure = HandlerError(error: error, fileID: fileID.description, line: Int(line))
    if let channel, channel.observerCount > 0 {
      channel.post(failure)
      return
    }
    guard !printed.exchange(true, ordering: .relaxed) else { return }
    print(
      "Events: a handler registered at \(failure.fileID):\(failure.line) threw \(error), and "
        + "nothing observes its event's `errors`. Later errors of this registration are not "
        + "printed.\n")
  }
}
