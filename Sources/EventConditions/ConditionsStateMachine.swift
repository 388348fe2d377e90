/// The rules of a ``NotificationReceiver``, as a plain value: which conditioners it holds, what
/// each has received this round, and whether the set is verified.
///
/// Every mutating method returns what the caller has to do (tell handlers, resume waiters)
/// instead of doing it, so the receiver can run the machine under its lock and act after
/// releasing it, and the rules can be tested without threads.
///
/// The `verified` flag is the receiver's announced state:
/// - latched (`repeats == false`): set by a completion, cleared only by `reset()`;
/// - repeating: set after a completion only when the re-armed set is still satisfied (it is
///   made of shared conditioners that a re-arm cannot reset), and cleared as soon as the set is
///   no longer satisfied, so the next completion is a new transition.
struct ConditionsStateMachine: Sendable {
  /// Where a conditioner's count comes from.
  enum Source: Equatable, Sendable {
    /// Arrivals checked on this receiver, re-armed every round.
    case local
    /// The count of a ``SharedConditioners`` registry, identified by its `id`; never re-armed
    /// by the receiver.
    case shared(registry: UInt64)
  }

  struct Conditioner: Equatable, Sendable {
    let minCount: Int
    let ignorable: Bool
    let source: Source
    /// Local: arrivals this round, capped at `minCount` (surplus is not carried over).
    /// Shared: the registry's count.
    var count: Int
    /// The registry's version of `count`, so a stale update never overwrites a newer one.
    var version: UInt64
    /// Ignored in this round.
    var isIgnored = false

    var isSatisfied: Bool { isIgnored || count >= minCount }
    var remaining: Int { isIgnored ? 0 : max(0, minCount - count) }
  }

  /// What an arrival or an evaluation produced.
  struct Evaluation: Equatable, Sendable {
    /// What `check` returns: with repeats, whether this call completed the set; latched,
    /// whether the set is verified after it.
    var isVerified: Bool
    /// Whether the set went from unverified to verified: `onVerified` handlers and waiters
    /// are due.
    var didComplete: Bool

    static let none = Evaluation(isVerified: false, didComplete: false)
  }

  /// What an ignore produced.
  struct IgnoreOutcome: Equatable, Sendable {
    /// Whether the ignore was applied: `onIgnored` handlers are due.
    var isAccepted: Bool
    /// Whether it completed the set: `onVerified` handlers and waiters are due.
    var didComplete: Bool
  }

  private(set) var conditioners: [String: Conditioner] = [:]
  /// The name of the last arrival and its index in `conditioners`, so that arrivals of one name
  /// in a row (a name checked over and over) hash it once: hashing a `String` and finding its
  /// bucket costs far more than comparing two equal small strings.
  /// The index stays valid while no key is added or removed: every write to `conditioners` by
  /// key clears it (see `forgetLastArrival`); updates of values in place keep it.
  private var lastArrival: (name: String, index: [String: Conditioner].Index)?
  private(set) var repeats: Bool
  var isEnabled = true
  private var verified = false

  init(repeats: Bool) {
    self.repeats = repeats
  }

  /// Whether every conditioner is met in this round. An empty set waits for nothing and is
  /// never verified.
  private var isSatisfied: Bool {
    !conditioners.isEmpty && conditioners.values.allSatisfy(\.isSatisfied)
  }

  /// Whether an evaluation now would find the set verified: latched, or every conditioner met.
  var isVerified: Bool { verified || isSatisfied }

  func contains(_ name: String) -> Bool {
    conditioners[name] != nil
  }

  /// Units `name` still needs in this round; 0 when met, ignored, or not in the set.
  func remaining(_ name: String) -> Int {
    conditioners[name]?.remaining ?? 0
  }

  /// Adds a conditioner. Does not evaluate.
  ///
  /// - Returns: `false`, changing nothing, when the name is already in the set.
  mutating func add(
    _ name: String, minCount: Int, ignorable: Bool, source: Source = .local, count: Int = 0,
    version: UInt64 = 0
  ) -> Bool {
    guard conditioners[name] == nil else { return false }
    forgetLastArrival()
    conditioners[name] = Conditioner(
      minCount: minCount, ignorable: ignorable, source: source, count: count, version: version)
    normalize()
    return true
  }

  /// Removes a conditioner, if present. Does not evaluate.
  mutating func remove(_ name: String) {
    forgetLastArrival()
    conditioners[name] = nil
    normalize()
  }

  /// Changes `repeats`. Turning it on while latched re-arms, as a completing arrival would
  /// have, so the receiver does not stay stuck in a verified state nothing can leave.
  mutating func setRepeats(_ newValue: Bool) {
    if newValue && !repeats && verified {
      rearm()
      verified = isSatisfied
    }
    repeats = newValue
    normalize()
  }

  /// One arrival of `name`: consumes a unit of a local conditioner of that name, then
  /// evaluates. A shared or unknown name consumes nothing and only evaluates.
  mutating func arrive(_ name: String) -> Evaluation {
    arrival(name).evaluation
  }

  /// ``arrive(_:)``, and whether the arrival was counted: the receiver is enabled and holds a
  /// local conditioner of that name (also one met already this round). The `onArrival`
  /// handlers of a receiver run for counted arrivals only.
  mutating func arrival(_ name: String) -> (evaluation: Evaluation, isCounted: Bool) {
    guard isEnabled else { return (.none, false) }
    // At most one hash lookup, then an in-place update of the value.
    let index: [String: Conditioner].Index?
    if let last = lastArrival, last.name == name {
      index = last.index
    } else {
      index = conditioners.index(forKey: name)
      lastArrival = index.map { (name, $0) }
    }
    guard let index else { return (evaluate(), false) }
    let conditioner = conditioners.values[index]
    guard conditioner.source == .local else { return (evaluate(), false) }
    let count = min(conditioner.count + 1, conditioner.minCount)
    conditioners.values[index].count = count
    // An arrival that leaves its own conditioner unmet leaves the set unmet: no need to read
    // every other conditioner to know it.
    let leavesUnmet = !conditioner.isIgnored && count < conditioner.minCount
    return (evaluate(satisfied: !leavesUnmet && isSatisfied), true)
  }

  /// Whether ``updateShared(_:registry:count:version:)`` would take this update: the receiver
  /// is enabled and holds the name from that registry at an older version.
  func takesShared(_ name: String, registry: UInt64, version: UInt64) -> Bool {
    guard isEnabled, let conditioner = conditioners[name] else { return false }
    return conditioner.source == .shared(registry: registry) && version > conditioner.version
  }

  /// Marks an ignorable conditioner met for this round, then evaluates.
  ///
  /// Dropped while disabled, and refused for a name not in the set or not ignorable.
  mutating func ignore(_ name: String) -> IgnoreOutcome {
    guard markIgnored(name) else { return IgnoreOutcome(isAccepted: false, didComplete: false) }
    return IgnoreOutcome(isAccepted: true, didComplete: evaluateIgnore().didComplete)
  }

  /// The first half of ``ignore(_:)``: marks an ignorable conditioner met for this round without
  /// evaluating, so that the `onIgnored` handlers can run (outside the lock) while it reads as
  /// met, before an evaluation re-arms it.
  ///
  /// - Returns: Whether the ignore was accepted; `false` while disabled, for a name not in the
  ///   set, or for one that is not ignorable.
  mutating func markIgnored(_ name: String) -> Bool {
    guard isEnabled, var conditioner = conditioners[name], conditioner.ignorable else {
      return false
    }
    conditioner.isIgnored = true
    forgetLastArrival()
    conditioners[name] = conditioner
    return true
  }

  /// The second half of ``ignore(_:)``: the evaluation after an accepted ignore.
  mutating func evaluateIgnore() -> Evaluation {
    guard isEnabled else { return .none }
    return evaluate()
  }

  /// Takes a registry's new count for a shared conditioner, then evaluates when enabled.
  ///
  /// - Returns: Whether the update completed the set.
  mutating func updateShared(
    _ name: String, registry: UInt64, count: Int, version: UInt64
  ) -> Bool {
    guard var conditioner = conditioners[name], conditioner.source == .shared(registry: registry),
      version > conditioner.version
    else { return false }
    conditioner.count = count
    conditioner.version = version
    forgetLastArrival()
    conditioners[name] = conditioner
    guard isEnabled else {
      normalize()
      return false
    }
    return evaluate().didComplete
  }

  /// Re-arms every conditioner and ends a latched verification. Shared counts are the
  /// registry's and stay, so a set of met shared conditioners stays verified.
  mutating func reset() {
    rearm()
    verified = isSatisfied
  }

  private mutating func evaluate() -> Evaluation {
    evaluate(satisfied: isSatisfied)
  }

  /// ``evaluate()`` with ``isSatisfied`` known to be `satisfied`.
  private mutating func evaluate(satisfied: Bool) -> Evaluation {
    if !repeats {
      if verified { return Evaluation(isVerified: true, didComplete: false) }
      guard satisfied else { return .none }
      verified = true
      return Evaluation(isVerified: true, didComplete: true)
    }
    guard satisfied else {
      verified = false
      return .none
    }
    guard !verified else { return .none }
    rearm()
    verified = isSatisfied
    return Evaluation(isVerified: true, didComplete: true)
  }

  /// Starts a new round: local counts to zero, ignores cleared.
  ///
  /// Mutates the values in place, walking the indices by hand: assigning by key while iterating
  /// the dictionary, or iterating `values.indices` (which holds a copy of the values), would
  /// share its storage and copy it, an allocation per completion.
  private mutating func rearm() {
    var index = conditioners.values.startIndex
    while index != conditioners.values.endIndex {
      conditioners.values[index].isIgnored = false
      if conditioners.values[index].source == .local { conditioners.values[index].count = 0 }
      conditioners.values.formIndex(after: &index)
    }
  }

  /// Keeps "repeating and verified implies satisfied" after a change that may unmeet the set.
  /// Drops the cached index of the last arrival, before a write to `conditioners` by key.
  private mutating func forgetLastArrival() {
    lastArrival = nil
  }

  private mutating func normalize() {
    if repeats && verified && !isSatisfied { verified = false }
  }
}
