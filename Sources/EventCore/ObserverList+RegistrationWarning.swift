public import Synchronization

/// A threshold of ``EventDiagnostics/registrationWarning``, and where the warning goes: the
/// process-wide one (``EventDiagnostics/registrationLimit``), or one a test gives a single list.
///
/// A class, so that a list can refer to it unretained: the process-wide one lives as long as the
/// process, and a list's own is retained by the list (`RegistrationWarning.ownLimit`). A
/// registration then reads the threshold with one load of the list's state and one relaxed load
/// of this word, and never touches a shared reference count.
@usableFromInline package final class RegistrationLimit: Sendable {
  /// The threshold; `Int.min` for never, as ``EventDiagnostics`` encodes it.
  @usableFromInline let threshold: Atomic<Int>
  /// Where the line goes: standard error, or a test's recorder.
  let write: @Sendable (String) -> Void

  init(_ threshold: Int?, write: @escaping @Sendable (String) -> Void) {
    self.threshold = Atomic(EventDiagnostics.encode(threshold))
    self.write = write
  }

  /// The threshold, `nil` for never.
  var value: Int? { EventDiagnostics.decode(threshold.load(ordering: .relaxed)) }
}

/// A list's part in the registration warning, kept in its state, under its lock.
///
/// Only ``limit`` and ``isExceeded(by:)`` are on a registration's path; the rest is read when
/// the threshold is crossed.
@usableFromInline struct RegistrationWarning {
  /// The threshold this list's registrations are compared with.
  @usableFromInline var limit: Unmanaged<RegistrationLimit>
  /// A limit of this list's own, set by ``ObserverList/warnOfRegistrations(above:writingTo:)``;
  /// retained here while ``limit`` refers to it.
  @usableFromInline var ownLimit: RegistrationLimit?
  /// The channel's name in the line (``ObserverList/nameChannel(_:)``); `nil` for an `Event`'s
  /// list, which is named after its payload type.
  @usableFromInline var channel: (@Sendable () -> String)?
  /// Whether the list has claimed its one warning: set by the registration that crossed the
  /// threshold, cleared again only if the count of the live ones finds it was not crossed.
  @usableFromInline var warned: Bool

  // Inlinable, as `ObserverList.State.init(retention:)` is: a list is made at its payload's type.
  @inlinable init() {
    self.limit = .passUnretained(EventDiagnostics.registrationLimit)
    self.ownLimit = nil
    self.channel = nil
    self.warned = false
  }

  /// Whether `count` registrations are more than the threshold: one relaxed load and one
  /// compare.
  ///
  /// Compared as unsigned, so that never (`Int.min`, 2⁶³ as unsigned) is more than any count a
  /// list can reach, and needs no compare of its own.
  @inlinable func isExceeded(by count: Int) -> Bool {
    let threshold = limit._withUnsafeGuaranteedRef { $0.threshold.load(ordering: .relaxed) }
    return UInt(bitPattern: count) > UInt(bitPattern: threshold)
  }

  /// Claims the list's one warning: `true` for the first caller only.
  @inlinable mutating func claim() -> Bool {
    guard !warned else { return false }
    warned = true
    return true
  }
}

extension EventDiagnostics {
  /// ``registrationWarning``'s threshold, which every list compares its registrations with
  /// unless a test gave it its own; lives as long as the process.
  @usableFromInline package static let registrationLimit = RegistrationLimit(
    10_000, write: StandardError.emit)

  /// The line of ``registrationWarning``: the channel, its live registrations, the threshold,
  /// and the sites that registered most, with their counts, most first.
  static func registrationLine(
    channel: String, live: Int, threshold: Int, sites: [(location: String, count: Int)]
  ) -> String {
    let most = sites.map { "\($0.location) (\($0.count))" }.joined(separator: ", ")
    return "Events: \(channel) has \(live) live registrations "
      + "(EventDiagnostics.registrationWarning is \(threshold)); "
      + "most were registered at \(most). This is printed once per channel.\n"
  }
}

/// Where a registration was written, as a dictionary key that hashes the text of its `#fileID`
/// in place: counting thousands of registrations makes no `String` for each.
private struct SiteKey: Hashable {
  let fileID: StaticString
  let line: UInt

  static func == (lhs: SiteKey, rhs: SiteKey) -> Bool {
    lhs.line == rhs.line
      && lhs.fileID.withUTF8Buffer { left in
        rhs.fileID.withUTF8Buffer { right in left.elementsEqual(right) }
      }
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(line)
    fileID.withUTF8Buffer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

extension ObserverList {
  /// How the line names a registration the package made (a `values` stream, a `next`, a test's
  /// recorder), which has no site of the user's. Counted like any other: when they are what
  /// piles up, the line says so.
  static var madeByThePackage: String { "(made by the package)" }

  /// Names the channel this list stands for in ``EventDiagnostics/registrationWarning``'s line:
  /// `Broadcaster protocol ThemeObserver`, `KeyedEvent<Int, Reply> key 42`. Called by the list's
  /// owner when it makes the list; `describe` runs only if the warning is printed, outside the
  /// lock. An unnamed list is named `Event<Payload>`, as an `Event`'s list is.
  @usableFromInline package func nameChannel(_ describe: @escaping @Sendable () -> String) {
    let replaced = state.withLock { state in
      defer { state.registrationWarning.channel = describe }
      return state.registrationWarning.channel
    }
    // A closure's captures are released after the lock.
    _ = replaced
  }

  /// Gives this list a threshold of its own for ``EventDiagnostics/registrationWarning``, and
  /// sends its line to `write` instead of standard error: what a test needs to check the line
  /// without changing the process-wide threshold under the tests that run beside it.
  ///
  /// - Parameters:
  ///   - threshold: The most live registrations that print nothing; `nil` for never.
  ///   - write: Called with the line, on the registering thread, outside every lock.
  /// - Precondition: `threshold` is `nil` or at least 0.
  package func warnOfRegistrations(
    above threshold: Int?, writingTo write: @escaping @Sendable (String) -> Void
  ) {
    let limit = RegistrationLimit(threshold, write: write)
    let replaced = state.withLock { state in
      defer {
        state.registrationWarning.ownLimit = limit
        state.registrationWarning.limit = .passUnretained(limit)
      }
      return state.registrationWarning.ownLimit
    }
    // Released after the lock: its writer's captures may be anything.
    _ = replaced
  }

  /// The name of this list's channel, as ``nameChannel(_:)`` set it, for a warning.
  package var channelName: String {
    let describe = state.withLock { $0.registrationWarning.channel }
    return describe?() ?? "Event<\(Payload.self)>"
  }

  /// Prints the registration warning, once the registration that crossed the threshold has
  /// claimed it and left the lock (see `insert(_:into:releasing:)`).
  ///
  /// Counts the live registrations first, reading the storage in place as a post does: the
  /// list's count includes observers that died since its last purge, and a warning must not
  /// blame them. What it finds dead is purged. If the live ones are not more than the
  /// threshold (now), nothing is printed and the warning is given back for a later crossing.
  /// Runs only when the threshold is crossed, so a registration below it pays nothing of this.
  @usableFromInline func printRegistrationWarning() {
    let (limit, channel) = state.withLock { state in
      (state.registrationWarning.limit.takeUnretainedValue(), state.registrationWarning.channel)
    }
    var live = 0
    var dead: [Entry] = []
    var counts: [SiteKey: Int] = [:]
    let hold = hold()
    for index in 0..<hold.count {
      guard let entry = hold.entry(at: index) else { continue }
      entry._withUnsafeGuaranteedRef { entry in
        guard !entry.isCancelled else { return }
        // Loads weak references, as a post's liveness check does; outside the lock.
        guard entry.isAlive else { return dead.append(entry) }
        live += 1
        counts[SiteKey(fileID: entry.site.fileID, line: entry.site.line), default: 0] += 1
      }
    }
    leave(hold)
    purge(dead)
    guard let threshold = limit.value, live > threshold else {
      state.withLock { $0.registrationWarning.warned = false }
      return
    }
    // Keys with the same text at two addresses are one site; a site the package made has none.
    var bySite: [String: Int] = [:]
    for (key, count) in counts {
      let site = RegistrationSite(.closure, fileID: key.fileID, line: key.line)
      bySite[site.location ?? Self.madeByThePackage, default: 0] += count
    }
    let most = bySite.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .prefix(3).map { (location: $0.key, count: $0.value) }
    let name = channel?() ?? "Event<\(Payload.self)>"
    limit.write(
      EventDiagnostics.registrationLine(
        channel: name, live: live, threshold: threshold, sites: most))
  }
}
