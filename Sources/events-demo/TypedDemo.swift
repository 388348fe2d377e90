import Events
import Foundation

/// `typed`: EventTyped's typed events, IZEvent-style: method observers, tuple payloads, a
/// queue-delivered event, an async-stream consumer, a gate that holds posts until it opens, a
/// replayed login state that a screen created later reads at once, an async handler, and a
/// priority with the event's own list of who observes it, from where, a handler that throws,
/// whose error reaches the event's `errors`, and requests in flight that each await their own
/// reply on a `KeyedEvent` (KeyedReplies.swift).
enum TypedDemo {
  @MainActor
  static func run() async -> Bool {
    let report = DemoReport(
      name: "typed",
      title:
        "typed events, tuple payloads, queues, async streams, gates, replay, async handlers, "
        + "priorities, handlers that throw and keyed replies (EventTyped)",
      scenarios: 10)
    await report.scenario("method observers on an Event<Void>, one registration per observer") {
      methodObservers(report)
    }
    await report.scenario("a tuple payload reaches a method and a static function by position") {
      tuplePayloads(report)
    }
    await report.scenario("a queue-delivered event and a main-actor event") {
      await deliveries(report)
    }
    await report.scenario("an async-stream consumer on the main actor") {
      await asyncStream(report)
    }
    await report.scenario("a gate holds posts until it opens, then delivers them in order") {
      gate(report)
    }
    await report.scenario("a screen created after the login reads the login state at once") {
      await replay(report)
    }
    await report.scenario("an async handler on the main actor: one call at a time, in post order") {
      await asyncHandler(report)
    }
    await report.scenario("a priority, and String(reflecting:) lists who observes, from where") {
      priorities(report)
    }
    await report.scenario("a handler that throws stops nobody; its error reaches errors") {
      throwingHandler(report)
    }
    await report.scenario("requests in flight each await their own reply on a KeyedEvent") {
      await keyedReplies(report)
    }
    return report.finish()
  }

  @MainActor
  private static func methodObservers(_ report: DemoReport) {
    let started = Arrivals<String>()
    let list = StatusView("download list", calls: started)
    let badge = StatusView("badge", calls: started)
    Downloads.didStart.register(list, function: StatusView.downloadDidStart)
    Downloads.didStart.register(badge, function: StatusView.downloadDidStart)
    DemoLog.event("post Downloads.didStart")
    Downloads.didStart.post()
    Downloads.didStart.register(list, function: StatusView.downloadDidStart)
    DemoLog.event("download list registers again: replaced and moved to the end")
    DemoLog.event("post Downloads.didStart")
    Downloads.didStart.post()
    report.check(
      started.all == ["download list", "badge", "badge", "download list"],
      "each observer ran once per post; re-registering moved the list after the badge")
    report.check(
      Downloads.didStart.observerCount == 2, "2 registrations: registering again added none")
  }

  @MainActor
  private static func tuplePayloads(_ report: DemoReport) {
    let shown = Arrivals<String>()
    var list: DownloadList? = DownloadList(shown: shown)
    weak var releasedList: DownloadList?
    releasedList = list
    Downloads.didFinish.register(list!, function: DownloadList.show)
    Downloads.didFinish.register(Analytics.self, function: Analytics.logDownload)
    DemoLog.event("post Downloads.didFinish(\"report.pdf\", 48213)")
    Downloads.didFinish.post("report.pdf", 48_213)
    report.check(Downloads.didFinish.observerCount == 2, "2 registrations: a list and a type")
    list = nil
    DemoLog.event("download list released (no unregister)")
    DemoLog.event("post Downloads.didFinish(\"photo.heic\", 2051337)")
    Downloads.didFinish.post("photo.heic", 2_051_337)
    report.check(releasedList == nil, "the event did not keep the list alive")
    report.check(
      shown.all == ["report.pdf 48213"] && Analytics.logged.all == ["report.pdf", "photo.heic"],
      "both got (String, Int) as two parameters; the released list got nothing more")
    report.check(
      Downloads.didFinish.observerCount == 1, "the released list no longer counts")
  }

  @MainActor
  private static func deliveries(_ report: DemoReport) async {
    let progress = Arrivals<String>()
    let bar = ProgressBar(progress: progress)
    showProgress(on: bar)
    for percent in [25, 50, 100] {
      Downloads.progress.post((file: "report.pdf", percent: percent))
      DemoLog.event("posted progress \(percent)%; post returned at once")
    }
    let arrived = await progress.wait(for: 3)
    report.check(
      arrived
        && progress.all == [
          "25% on typed.progress", "50% on typed.progress",
          "100% on typed.progress",
        ],
      "the labelled-tuple payloads ran on typed.progress, in post order")

    let failures = Arrivals<String>()
    let alert = AlertPresenter(failures: failures)
    Downloads.didFail.register(alert, function: AlertPresenter.present)
    Network.queue.async {
      DemoLog.event("post Downloads.didFail(\"video.mov\") from the network queue")
      Downloads.didFail.post("video.mov")
    }
    let failed = await failures.wait(for: 1)
    report.check(
      failed && failures.all == ["video.mov on main actor"],
      "the .mainActor event's observer ran on the main actor, not on typed.network")
  }

  /// Registered from nonisolated code, so the handler runs where the event's delivery says
  /// (`typed.progress`); the same closure written in main-actor code would run on the main
  /// actor.
  nonisolated private static func showProgress(on bar: ProgressBar) {
    Downloads.progress.register(bar) { bar, update in bar.show(update) }
  }

  @MainActor
  private static func asyncStream(_ report: DemoReport) async {
    let consumed = Arrivals<String>()
    // `values` is read here, before the posts, so the consumer misses none of them.
    let consumer = consume(Downloads.didFinish.values, count: 3, into: consumed)
    Network.queue.async {
      for (file, bytes) in [("a.txt", 120), ("b.txt", 4_096), ("c.txt", 65_536)] {
        DemoLog.event("post Downloads.didFinish(\"\(file)\", \(bytes))")
        Downloads.didFinish.post(file, bytes)
      }
    }
    let arrived = await consumed.wait(for: 3)
    report.check(
      arrived
        && consumed.all == [
          "a.txt on main actor", "b.txt on main actor", "c.txt on main actor",
        ],
      "the consumer got every value, in post order, on the main actor")
    // It has stopped after 3 values unless the wait timed out: then it must not linger.
    consumer.cancel()
  }

  /// Starts a main-actor task that reads `count` values of `stream`.
  @MainActor
  private static func consume(
    _ stream: AsyncStream<(String, Int)>, count: Int, into consumed: Arrivals<String>
  ) -> Task<Void, Never> {
    Task { @MainActor in
      for await (file, bytes) in stream.prefix(count) {
        DemoLog.event("for await got \(file), \(bytes) bytes")
        consumed.record("\(file) on \(ExecutionContext.current)")
      }
    }
  }

  @MainActor
  private static func replay(_ report: DemoReport) async {
    await onNetworkQueue {
      DemoLog.event("post Account.state(\"ada\"): no screen observes yet")
      Account.state.post("ada")
    }
    report.check(Account.state.latest == "ada", "the event kept the login: latest is \"ada\"")
    DemoLog.event("the profile screen is created and registers")
    let shown = Arrivals<String>()
    let screen = ProfileScreen(shown: shown)
    report.check(
      screen.title == "ada" && shown.all == ["ada on main actor"],
      "the screen showed \"ada\" before init returned, on the thread that registered it")
    let welcomed = Arrivals<String>()
    Account.state.subscribeOnce { user in
      DemoLog.event("welcome banner (subscribeOnce): welcome, \(user)")
      welcomed.record(user)
    }
    report.check(
      welcomed.all == ["ada"] && Account.state.observerCount == 1,
      "subscribeOnce ran at once with the kept login, then ended: only the screen counts")
    await onNetworkQueue {
      DemoLog.event("post Account.state(\"grace\")")
      Account.state.post("grace")
    }
    // The screen is `@MainActor`: a post from the network queue reaches it on the main actor.
    let arrived = await shown.wait(for: 2)
    report.check(
      arrived && shown.all == ["ada on main actor", "grace on main actor"]
        && welcomed.all == ["ada"],
      "the screen got \"grace\" live, once, on the main actor; the banner did not run again")
    Account.state.unregister(screen)
    Account.state.clearReplay()
    DemoLog.event("signed out: the screen unregistered, Account.state.clearReplay()")
    report.check(Account.state.latest == nil, "nothing kept: a screen created now waits")
  }

  /// Runs `body` on the network queue and resumes once it has returned.
  private static func onNetworkQueue(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
      Network.queue.async {
        body()
        continuation.resume()
      }
    }
  }

  @MainActor
  private static func asyncHandler(_ report: DemoReport) async {
    let steps = Arrivals<String>()
    let bar = AnimatedBar(steps: steps)
    let subscription = Sync.progress.subscribe { @MainActor percent async in
      await bar.animate(to: percent)
    }
    Network.queue.async {
      for percent in [25, 50, 75, 100] {
        Sync.progress.post(percent)
        DemoLog.event("posted \(percent)%; post returned at once")
        steps.record("posted \(percent)")
      }
    }
    let finished = await bar.finished.wait(for: 4)
    report.check(
      finished && bar.finished.all == [25, 50, 75, 100],
      "the handler ran for 25, 50, 75, 100, in post order, though earlier calls took longer")
    report.check(
      bar.mostAtOnce == 1 && bar.contexts == ["main actor"],
      "one call at a time, never overlapping, every one on the main actor")
    let log = steps.all
    report.check(
      (log.firstIndex(of: "posted 100") ?? .max) < (log.firstIndex(of: "done 25") ?? -1),
      "all four posts returned before the first call had finished")
    DemoLog.event("post 200 and 300, then cancel at once, before either call starts")
    Sync.progress.post(200)
    Sync.progress.post(300)
    subscription.cancel()
    try? await Task.sleep(for: .milliseconds(50))
    report.check(
      bar.finished.count == 4 && Sync.progress.observerCount == 0,
      "cancel dropped the two queued posts: no call started after it returned")
  }

  @MainActor
  private static func throwingHandler(_ report: DemoReport) {
    let saved = Arrivals<String>()
    let failures = Arrivals<HandlerError>()
    let storage = Storage(saved: saved)
    var tokens = Set<Subscription>()
    Uploads.didReceive.errors.subscribe { failure in
      DemoLog.event("Uploads.didReceive.errors: \(failure)")
      failures.record(failure)
    }
    .store(in: &tokens)
    let line = #line + 1
    Uploads.didReceive.subscribe { file in try storage.save(file) }.store(in: &tokens)
    Uploads.didReceive.subscribe { file in
      DemoLog.event("upload list shows \(file)")
      saved.record("listed \(file)")
    }
    .store(in: &tokens)
    for file in ["notes.txt", "huge.iso", "photo.jpg"] {
      DemoLog.event("post Uploads.didReceive(\"\(file)\")")
      Uploads.didReceive.post(file)
    }
    report.check(
      saved.all == [
        "saved notes.txt", "listed notes.txt", "listed huge.iso", "saved photo.jpg",
        "listed photo.jpg",
      ],
      "the throw for huge.iso stopped nobody: the list after the storage still ran")
    let failure = failures.all.first
    report.check(
      failures.count == 1 && failure?.error as? Storage.Full == Storage.Full(file: "huge.iso"),
      "errors received the one error thrown")
    report.check(
      failure?.fileID == "events_demo/TypedDemo.swift" && failure?.line == line,
      "the HandlerError says where the throwing registration was written")
  }

  @MainActor
  private static func gate(_ report: DemoReport) {
    let online = Gate()
    let delivered = Arrivals<String>()
    let outbox = Outbox(delivered: delivered)
    Chat.send.register(outbox, function: Outbox.send)
    Chat.read.register(outbox, function: Outbox.markRead)
    DemoLog.event("offline: post send(\"hello\"), read(7), send(\"are you there?\") when online")
    Chat.send.post("hello", when: online)
    Chat.read.post(7, when: online)
    Chat.send.post("are you there?", when: online)
    report.check(delivered.count == 0, "nothing was delivered while the gate was closed")
    DemoLog.event("online.open()")
    online.open()
    report.check(
      delivered.all == ["send hello", "read 7", "send are you there?"],
      "opening delivered the 3 held posts once, in post order, across both events")
    DemoLog.event("post send(\"back!\") when online")
    Chat.send.post("back!", when: online)
    report.check(delivered.all.last == "send back!", "with the gate open a post passes at once")
  }
}

extension TypedDemo {
  /// The undo banner registers after the cancel log, with a higher priority: it is meant to run
  /// first. The event's debug description lists both, with where they registered.
  @MainActor
  fileprivate static func priorities(_ report: DemoReport) {
    let ran = Arrivals<String>()
    let banner = UndoBanner(ran: ran)
    let log = Downloads.didCancel.subscribe { file in
      DemoLog.event("cancel log records \(file)")
      ran.record("cancel log")
    }
    Downloads.didCancel.register(banner, priority: 10) { banner, file in banner.offerUndo(file) }
    DemoLog.event("post Downloads.didCancel(\"video.mov\")")
    Downloads.didCancel.post("video.mov")
    DemoLog.event("ran in order: \(ran.all.joined(separator: ", "))")
    let description = String(reflecting: Downloads.didCancel)
    DemoLog.event("String(reflecting: Downloads.didCancel):")
    for line in description.split(separator: "\n") { DemoLog.plain("             \(line)") }
    report.check(
      ran.all == ["undo banner", "cancel log"],
      "the banner, registered later at priority 10, ran before the log")
    report.check(
      description.contains("priority 10, events_demo/TypedDemo.swift:"),
      "the description lists the banner's priority and the line it registered on")
    log.cancel()
    Downloads.didCancel.unregister(banner)
  }
}

/// Offers to undo a cancelled download.
private final class UndoBanner: Sendable {
  private let ran: Arrivals<String>

  init(ran: Arrivals<String>) {
    self.ran = ran
  }

  func offerUndo(_ file: String) {
    DemoLog.event("undo banner offers to restart \(file)")
    ran.record("undo banner")
  }
}

/// The events of a download manager, declared where they are posted.
private enum Downloads {
  static let didStart = Event<Void>()
  static let didFinish = Event<(String, Int)>()
  static let progress = Event<(file: String, percent: Int)>(
    delivery: .queue(ExecutionContext.queue("typed.progress")))
  static let didFail = Event<String>(delivery: .mainActor)
  static let didCancel = Event<String>()
}

/// The background queue the simulated network posts from.
private enum Network {
  static let queue = ExecutionContext.queue("typed.network")
}

/// A view that shows that a download started.
private final class StatusView: Sendable {
  let name: String
  private let calls: Arrivals<String>

  init(_ name: String, calls: Arrivals<String>) {
    self.name = name
    self.calls = calls
  }

  func downloadDidStart() {
    DemoLog.event("\(name): a download started")
    calls.record(name)
  }
}

/// Lists finished downloads; its method takes the payload's two elements.
private final class DownloadList: Sendable {
  private let shown: Arrivals<String>

  init(shown: Arrivals<String>) {
    self.shown = shown
  }

  func show(_ file: String, _ bytes: Int) {
    DemoLog.event("download list shows \(file) (\(bytes) bytes)")
    shown.record("\(file) \(bytes)")
  }
}

/// Registered as a type, with a static function: no instance to keep alive.
private enum Analytics {
  static let logged = Arrivals<String>()

  static func logDownload(_ file: String, _ bytes: Int) {
    DemoLog.event("Analytics.logDownload(\(file), \(bytes))")
    logged.record(file)
  }
}

/// Follows progress on the event's queue.
private final class ProgressBar: Sendable {
  private let progress: Arrivals<String>

  init(progress: Arrivals<String>) {
    self.progress = progress
  }

  func show(_ update: (file: String, percent: Int)) {
    DemoLog.event("progress bar: \(update.file) \(update.percent)%")
    progress.record("\(update.percent)% on \(ExecutionContext.current)")
  }
}

/// Presents failures; the event delivers on the main actor.
private final class AlertPresenter: Sendable {
  private let failures: Arrivals<String>

  init(failures: Arrivals<String>) {
    self.failures = failures
  }

  func present(_ file: String) {
    DemoLog.event("alert: \(file) failed to download")
    failures.record("\(file) on \(ExecutionContext.current)")
  }
}

/// What a chat screen asks to send.
private enum Chat {
  static let send = Event<String>()
  static let read = Event<Int>()
}

/// Sends chat messages and read receipts once the connection is up.
private final class Outbox: Sendable {
  private let delivered: Arrivals<String>

  init(delivered: Arrivals<String>) {
    self.delivered = delivered
  }

  func send(_ text: String) {
    DemoLog.event("outbox sends \"\(text)\"")
    delivered.record("send \(text)")
  }

  func markRead(_ message: Int) {
    DemoLog.event("outbox marks message \(message) read")
    delivered.record("read \(message)")
  }
}

/// The signed-in user: the event keeps the latest, so screens created later start from it.
private enum Account {
  static let state = Event<String>(replay: .latest)
}

/// Shows the signed-in user; created after the login was posted.
@MainActor
private final class ProfileScreen {
  private(set) var title = "signed out"
  private let shown: Arrivals<String>

  init(shown: Arrivals<String>) {
    self.shown = shown
    Account.state.register(self, function: ProfileScreen.show)
  }

  func show(_ user: String) {
    DemoLog.event("profile screen shows \(user)")
    title = user
    shown.record("\(user) on \(ExecutionContext.current)")
  }
}

/// Files received for upload; one of its handlers may throw.
private enum Uploads {
  static let didReceive = Event<String>()
}

/// Saves received files, and throws for one too large to keep.
private final class Storage: Sendable {
  struct Full: Error, Equatable {
    let file: String
  }

  private let saved: Arrivals<String>

  init(saved: Arrivals<String>) {
    self.saved = saved
  }

  func save(_ file: String) throws {
    guard !file.hasSuffix(".iso") else { throw Full(file: file) }
    DemoLog.event("storage saves \(file)")
    saved.record("saved \(file)")
  }
}

/// Sync progress, posted from the network queue.
private enum Sync {
  static let progress = Event<Int>()
}

/// A progress bar whose animation suspends: the first steps take longest, so overlapping or
/// reordered calls would show.
@MainActor
private final class AnimatedBar {
  let finished = Arrivals<Int>()
  private let steps: Arrivals<String>
  private var running = 0
  private(set) var mostAtOnce = 0
  private(set) var contexts: Set<String> = []

  init(steps: Arrivals<String>) {
    self.steps = steps
  }

  func animate(to percent: Int) async {
    running += 1
    mostAtOnce = max(mostAtOnce, running)
    contexts.insert(ExecutionContext.current)
    DemoLog.event("bar starts animating to \(percent)%")
    // 42 ms for 25%, down to 5 ms for 100%.
    try? await Task.sleep(for: .milliseconds((100 - percent) / 2 + 5))
    DemoLog.event("bar shows \(percent)%")
    steps.record("done \(percent)")
    running -= 1
    finished.record(percent)
  }
}
