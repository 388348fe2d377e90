/// What the registrations of one channel (an event, or every key of a keyed event) share about
/// their backlogs: the ``Backlog``, where drop reports go, and how to name the channel in a
/// warning.
///
/// The owner of the list makes it (EventCore cannot name EventTyped's `Event<Drop>`): it
/// installs the handler of reports with ``deliverDrops(to:)`` when its `drops` is first read.
@usableFromInline package final class FlowControl: Sendable {
  package let backlog: Backlog
  /// Whether ``backlog`` has a limit: a bounded registration's `.queue` and `.mainActor` calls
  /// go through its mailbox, an unbounded one's straight to the queue.
  package let isBounded: Bool
  /// The channel's name in a warning, made only when one is printed.
  private let channel: @Sendable () -> String
  /// The owner's `drops` event, made by its first read.
  package let drops = LazyReference()
  private let sink = Lock(Sink())
  /// The flow whose writer this one prints with (a keyed event's, for one of its keys).
  private let parent: FlowControl?

  private struct Sink {
    /// Posts a report; `false` when nothing observes the reports.
    var post: (@Sendable (Drop) -> Bool)?
    var print: @Sendable (String) -> Void = StandardError.emit
  }

  /// The flow of a channel with `backlog`, named by `channel` in warnings (`Event<Int>`).
  package init(backlog: Backlog, channel: @escaping @Sendable () -> String) {
    self.backlog = backlog
    self.isBounded = !backlog.isUnbounded
    self.channel = channel
    self.parent = nil
  }

  /// The flow of one part of `parent`'s channel (a key of a keyed event): `parent`'s backlog,
  /// named by `channel`, printing with `parent`'s writer; its reports go where
  /// ``deliverDrops(to:)`` says.
  package init(partOf parent: FlowControl, channel: @escaping @Sendable () -> String) {
    self.backlog = parent.backlog
    self.isBounded = parent.isBounded
    self.channel = channel
    self.parent = parent
  }

  /// Where this flow's lines go.
  private var printer: @Sendable (String) -> Void {
    parent?.printer ?? sink.withLock { $0.print }
  }

  /// Sends every later report to `post`, which returns `false` when nothing observes them (the
  /// report is then printed, once per registration).
  package func deliverDrops(to post: @escaping @Sendable (Drop) -> Bool) {
    sink.withLock { $0.post = post }
  }

  /// Sends what would go to standard error to `write` instead, so that tests can read it.
  package func writeWarnings(to write: @escaping @Sendable (String) -> Void) {
    sink.withLock { $0.print = write }
  }

  /// Reports `count` drops of the registration written at `site`: to the owner's `drops` if
  /// anything observes it, or else printed if `firstPrint` says this is the registration's
  /// first. Runs outside every lock, on the thread that dropped or that runs the
  /// registration's next call.
  package func reportDrops(
    _ count: Int, of site: RegistrationSite, firstPrint: () -> Bool
  ) {
    let post = sink.withLock { $0.post }
    let drop = Drop(count: count, fileID: site.fileID.description, line: Int(site.line))
    if let post, post(drop) { return }
    guard firstPrint() else { return }
    printer(
      "Events: \(backlog) dropped a payload for the registration at \(Self.name(of: site)) of "
        + "\(channel()), and nothing observes its `drops`. Later drops of this registration "
        + "are not printed.\n")
  }

  /// Prints that the unbounded backlog of the registration written at `site` has `waiting`
  /// calls, past ``EventDiagnostics/backlogWarning``. The caller prints it once per
  /// registration.
  package func warnBacklog(of site: RegistrationSite, waiting: Int) {
    Self.warnBacklog(of: site, waiting: waiting, channel: channel(), print: printer)
  }

  /// ``warnBacklog(of:waiting:)`` for a registration whose list has no flow of its own.
  package static func warnBacklog(
    of site: RegistrationSite, waiting: Int, channel: String,
    print: @Sendable (String) -> Void = StandardError.emit
  ) {
    let threshold = EventDiagnostics.backlogWarning.map { "\($0)" } ?? "nil"
    print(
      "Events: the registration at \(name(of: site)) of \(channel) has \(waiting) calls "
        + "waiting (EventDiagnostics.backlogWarning is \(threshold)): its consumer is falling "
        + "behind its posts. Bound it with `backlog: .dropOldest(n)` or `.dropNewest(n)`, or "
        + "pace the producer with `send`. This is printed once per registration.\n")
  }

  private static func name(of site: RegistrationSite) -> String {
    site.location ?? "(made by the package: \(site.kindDescription))"
  }
}
