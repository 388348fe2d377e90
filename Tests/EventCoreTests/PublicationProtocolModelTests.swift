import Foundation
import Testing

/// An exhaustive model check of `ObserverList`'s lock-free publication protocol ("Why a change
/// is O(1)" in ObserverList.swift): every interleaving of two posts and one writer.
///
/// The model is a transcription, not a call into the package. Its shared state is the list's
/// atomics (`published`, `readers`, `needsCleanup`, `retiredAwaitReaders`), each storage's
/// `holders`, `count` and slots, the lock and what it guards (`State.storage`, `pending`,
/// `retired`), and which storages are freed. Each actor is a program of steps, in the order of
/// the real code, one shared-memory operation a step:
/// - A post is `forEachEntry`: `hold()` (with `leaveReaders()` and, when `published` is 0,
///   `holdLocked(_:)` under the lock), a read of each slot below its count, then `leave(_:)`.
///   `leaveReaders()` and `leave(_:)` run `cleanUp()` (the lock, `tidy(_:into:)`, the unlock)
///   when they see their flag.
/// - The writer runs `remove(_:)` (`remove(_:from:releasing:)`: `clearNow` when nothing waits,
///   otherwise, or when that finds the storage held, the slot left pending and `tidy(_:into:)`), or
///   `insert(_:)` into a full storage (`place`, then `rebuild` with `takeExclusive(_:)` and
///   `publish(_:)`, then `tidy(_:into:)`), or both in turn.
///
/// Sequential consistency is the right model: every access of the handshake (`readers`,
/// `published`, `holders`, `needsCleanup`, `retiredAwaitReaders`) is `.sequentiallyConsistent`,
/// so every execution is an interleaving of these steps. The only weaker accesses load `count`,
/// which no scenario here changes while a storage is published (appends are not modelled).
///
/// A step may also do work that no other actor sees: local values, what the lock guards, and
/// a storage not yet published; merging that work into the step loses no interleaving. What
/// the real code releases after the lock (`Released`) is freed in the model at the step that
/// decides it, which is earlier, so the check is stricter.
///
/// Checked in every execution: (a) no post reads a slot cleared while it held the storage (from
/// loading its pointer to leaving), nor leaves after an entry it read was released, nor touches
/// a freed storage; (b) no cleanup is lost: once every actor is done, no slot is pending, no
/// storage retired, no flag raised, `published` is the current storage and every other storage
/// is freed; and once all but one post are done, that post, in its handlers (which may take any
/// time), holds up only what it holds; (c) some actor can step until all are done.
///
/// Each `Mutation` breaks one part of the protocol, and the checker must find what it allows.
@Suite("Publication protocol model", .serialized)
struct PublicationProtocolModelTests {
  @Test(
    "no interleaving of two posts and a writer breaks a hold, loses a cleanup or deadlocks",
    arguments: Scenario.allCases)
  func faithfulProtocol(scenario: Scenario) async {
    let (executions, report) = await Self.explore(Model(scenario: scenario, mutation: .faithful))
    #expect(report.isEmpty, "\(report)")
    // A smaller number would mean that the model lost interleavings.
    #expect(executions > scenario.minimumExecutions, "\(executions) executions")
  }

  @Test(
    "the checker finds what each broken variant of the protocol allows", arguments: Mutation.broken)
  func brokenProtocol(mutation: Mutation) async throws {
    let exposure = try #require(mutation.exposure)
    let model = Model(scenario: exposure.scenario, mutation: mutation)
    let found = await Self.onOwnThread {
      var explorer = Explorer(model: model)
      explorer.run()
      return (explorer.findings[exposure.violation] != nil, explorer.report)
    }
    #expect(found.0, "\(found.1)")
  }

  /// Explores every execution of `model`: how many there are, and the violations found.
  static func explore(_ model: Model) async -> (executions: Int, report: String) {
    await onOwnThread {
      var explorer = Explorer(model: model)
      let executions = explorer.run()
      return (executions, explorer.report)
    }
  }

  /// Runs `body` on a thread of its own: a search of a second or more on a cooperative thread
  /// holds one of the pool's two threads on a two-core machine, and the async tests beside it
  /// wait for it.
  static func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async
    -> Result
  {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: body()) }.start()
    }
  }
}

extension PublicationProtocolModelTests {
  enum Scenario: CaseIterable, Sendable {
    /// The writer removes entry 1: its slot is cleared at once, or left pending for the last
    /// post out.
    case remove
    /// The writer inserts entry 3 into the full storage: `rebuild` replaces it, and retires it
    /// while a post holds it or may be about to.
    case grow
    /// Both in turn: the replacement drops the pending slot with its storage.
    case removeThenGrow
    /// The insert, then the removal of the inserted entry, which only the new storage holds,
    /// while a post may still be about to join the retired one: that post must clean up the
    /// new storage's pending slot, since it will never hold that storage (the case that once
    /// left the slot waiting for the post to leave its handlers).
    case growThenRemove

    /// The writer's operations, each the step that takes the lock for it.
    var operations: [Step] {
      switch self {
      case .remove: [.lockToRemove]
      case .grow: [.lockToInsert]
      case .removeThenGrow: [.lockToRemove, .lockToInsert]
      case .growThenRemove: [.lockToInsert, .lockToRemove]
      }
    }

    /// The entries of the current storage once every actor is done.
    var liveAtEnd: [Int] {
      switch self {
      case .remove: [2]
      case .grow: [1, 2, 3]
      case .removeThenGrow: [2, 3]
      case .growThenRemove: [1, 2]
      }
    }

    /// The entry the writer's removal ends.
    var removedEntry: Int {
      self == .growThenRemove ? Model.insertedEntry : 1
    }

    /// Somewhat below the executions measured: 79,963,126,730, 10,335,346,748,454,
    /// 402,597,559,672,666 and 37,584,038,995,298,762.
    var minimumExecutions: Int {
      switch self {
      case .remove: 79_000_000_000
      case .grow: 10_000_000_000_000
      case .removeThenGrow: 400_000_000_000_000
      case .growThenRemove: 37_000_000_000_000_000
      }
    }
  }

  /// The real protocol, or one change to it that the checker must catch.
  enum Mutation: CaseIterable, Sendable {
    case faithful
    /// `tidy` clears pending slots without reading `holders` or taking the storage down.
    case tidyIgnoresHolders
    /// `clearNow` clears the removed slot without reading `holders` or taking the storage down.
    case clearNowIgnoresHolders
    /// `takeExclusive` does not read `readers`, so it misses a post that has loaded the pointer
    /// but not yet joined `holders`.
    case takeExclusiveIgnoresReaders
    /// `hold()` leaves `readers` before joining `holders`, so a writer can see neither.
    case holdLeavesReadersBeforeJoining
    /// The last post out of a storage does not read `needsCleanup`.
    case leaveIgnoresNeedsCleanup
    /// `tidy` frees retired storages that no post holds without waiting for `readers` to be 0.
    case tidyIgnoresReaders
    /// The post that brings `readers` to 0 does not read `retiredAwaitReaders`.
    case leaveReadersIgnoresRetiredAwaitReaders
    /// `hold()` leaves `readers` under the lock, so a `cleanUp()` it runs waits for itself.
    case holdLeavesReadersUnderTheLock
    /// `tidy` clears pending slots before it raises `retiredAwaitReaders` for the retired
    /// storages, as it once did.
    case tidyPendingBeforeRetired

    static var broken: [Mutation] { allCases.filter { $0 != .faithful } }

    /// The scenario that exposes the change and what the checker finds there; nil for the
    /// real code.
    var exposure: (scenario: Scenario, violation: Violation)? {
      switch self {
      case .faithful: nil
      case .tidyIgnoresHolders, .clearNowIgnoresHolders, .takeExclusiveIgnoresReaders:
        (.remove, .clearedWhileHeld)
      case .leaveIgnoresNeedsCleanup: (.remove, .lostCleanup)
      case .holdLeavesReadersBeforeJoining, .tidyIgnoresReaders: (.grow, .touchedFreedStorage)
      case .leaveReadersIgnoresRetiredAwaitReaders: (.grow, .cleanupWaitsForParkedPost)
      case .holdLeavesReadersUnderTheLock: (.grow, .deadlock)
      case .tidyPendingBeforeRetired: (.growThenRemove, .cleanupWaitsForParkedPost)
      }
    }
  }

  enum Violation: Hashable {
    case clearedWhileHeld, touchedFreedStorage, lostCleanup, cleanupWaitsForParkedPost, deadlock
  }

  /// Who calls `takeExclusive(_:)`, which tells where it returns.
  enum Caller: String, CustomStringConvertible {
    case tidy, rebuild, clearNow

    var description: String { rawValue }
  }

  /// An actor's next step, named after the code that performs it.
  enum Step: Hashable {
    // hold()
    case enterReaders, loadPublished, joinHolders, loadCount
    // leaveReaders()
    case leaveReaders, loadRetiredAwaitReaders
    // hold() when `published` is 0: `state.withLock { holdLocked($0) }`
    case lockToHold, holdLocked
    // forEachEntry: `hold.entry(at:)`
    case read(slot: Int)
    // leave(_:)
    case leave, loadNeedsCleanup
    // cleanUp(), and the end of every critical section
    case lockToCleanUp, unlock
    // remove(_:) and remove(_:from:releasing:)
    case lockToRemove, raiseNeedsCleanup
    // clearNow(_:in:_:)
    case loadHoldersToClearNow, clearRemoved, publishCleared
    // insert(_:), place and rebuild
    case lockToInsert, loadOldHolders, replaceStorage, raiseNeedsCleanupForRetired
    case publishReplacement
    // takeExclusive(_:)
    case takeDown(Caller), loadReaders(Caller), loadHolders(Caller)
    // tidy(_:into:)
    case loadHoldersForPending, clearPending, publishAgain, raiseRetiredAwaitReaders
    case loadReadersForRetired, lowerRetiredAwaitReaders, loadRetiredHolders(index: Int)
    case lowerNeedsCleanup
    case done
  }

  struct Storage: Hashable {
    var holders = 0
    /// Entry ids; 0 for a cleared slot.
    var slots: [Int]
    var isFreed = false
    /// Every scenario's storages are written in full before they are published.
    var count: Int { slots.count }
  }

  struct Actor: Hashable {
    var pc: Step
    /// Where `leaveReaders()`, `cleanUp()` and a writer's critical section go on.
    var resume = Step.done
    /// The writer's operations after the current one.
    var laterOperations: [Step] = []
    /// A post's storage from loading its pointer to leaving it (0: none), and the `count` of
    /// its hold.
    var held = 0
    var count = 0
    /// Bit `i`: slot `i` of the held storage was cleared while this post held it.
    var clearedWhileHeld = 0
    /// What `takeExclusive(_:)` found.
    var exclusive = false

    /// Whether the post is running its handlers: it holds a storage, out of `readers`.
    var isInHandlers: Bool {
      switch pc {
      case .read, .leave: true
      default: false
      }
    }
  }

  struct World: Hashable {
    // The list's atomics; storage `n` is `storages[n - 1]`, and 0 is no pointer.
    var published = 1
    var readers = 0
    var needsCleanup = false
    var retiredAwaitReaders = false
    // The lock, and the state it guards.
    var lockOwner: Int?
    var current = 1
    var pending: [Int] = []
    var retired: [Int] = []
    var storages = [Storage(slots: [1, 2])]
    var actors: [Actor]

    subscript(storage id: Int) -> Storage {
      get { storages[id - 1] }
      set { storages[id - 1] = newValue }
    }

    /// pthread_mutex_lock: false while any actor, this one included, holds the lock.
    mutating func takeLock(_ me: Int) -> Bool {
      guard lockOwner == nil else { return false }
      lockOwner = me
      return true
    }

    mutating func clear(_ slot: Int, of storage: Int) {
      self[storage: storage].slots[slot] = 0
      for index in actors.indices where actors[index].held == storage {
        actors[index].clearedWhileHeld |= 1 << slot
      }
    }

    /// A post's access to the storage it holds.
    func touch(by me: Int, found: inout Violation?) {
      if self[storage: actors[me].held].isFreed { found = .touchedFreedStorage }
    }
  }

  struct Model {
    let scenario: Scenario
    let mutation: Mutation

    static let insertedEntry = 3

    /// Two posts (actors 0 and 1) and the writer (actor 2).
    var start: World {
      let operations = scenario.operations
      let writer = Actor(pc: operations[0], laterOperations: Array(operations.dropFirst()))
      return World(actors: [Actor(pc: .enterReaders), Actor(pc: .enterReaders), writer])
    }

    static func name(of actor: Int) -> String { ["post A", "post B", "writer"][actor] }

    /// Takes `me`'s next step; false if it has none (it is done, or waits for the lock).
    func step(_ me: Int, in world: inout World, found: inout Violation?) -> Bool {
      switch world.actors[me].pc {
      case .done:
        return false

      case .enterReaders:
        world.readers += 1
        world.actors[me].pc = .loadPublished
      case .loadPublished:
        let storage = world.published
        if storage == 0 {
          // A writer has the storage to itself: wait for its lock, out of `readers` first.
          if mutation == .holdLeavesReadersUnderTheLock {
            world.actors[me].pc = .lockToHold
          } else {
            world.actors[me].resume = .lockToHold
            world.actors[me].pc = .leaveReaders
          }
        } else if mutation == .holdLeavesReadersBeforeJoining {
          world.actors[me].held = storage
          world.actors[me].resume = .joinHolders
          world.actors[me].pc = .leaveReaders
        } else {
          world.actors[me].held = storage
          world.actors[me].pc = .joinHolders
        }
      case .joinHolders:
        world.touch(by: me, found: &found)
        world[storage: world.actors[me].held].holders += 1
        world.actors[me].pc = .loadCount
      case .loadCount:
        world.touch(by: me, found: &found)
        world.actors[me].count = world[storage: world.actors[me].held].count
        if mutation == .holdLeavesReadersBeforeJoining {
          world.actors[me].pc = firstRead(of: world.actors[me])
        } else {
          world.actors[me].resume = firstRead(of: world.actors[me])
          world.actors[me].pc = .leaveReaders
        }

      case .leaveReaders:
        world.readers -= 1
        world.actors[me].pc =
          world.readers == 0 && mutation != .leaveReadersIgnoresRetiredAwaitReaders
          ? .loadRetiredAwaitReaders : world.actors[me].resume
      case .loadRetiredAwaitReaders:
        world.actors[me].pc = world.retiredAwaitReaders ? .lockToCleanUp : world.actors[me].resume

      case .lockToHold:
        guard world.takeLock(me) else { return false }
        if mutation == .holdLeavesReadersUnderTheLock {
          world.actors[me].resume = .holdLocked
          world.actors[me].pc = .leaveReaders
        } else {
          world.actors[me].pc = .holdLocked
        }
      case .holdLocked:
        let storage = world.current
        world.actors[me].held = storage
        world[storage: storage].holders += 1
        // `count` is written under the lock, which this post holds.
        world.actors[me].count = world[storage: storage].count
        world.actors[me].resume = firstRead(of: world.actors[me])
        world.actors[me].pc = .unlock

      case .read(let slot):
        world.touch(by: me, found: &found)
        if world.actors[me].clearedWhileHeld & (1 << slot) != 0 { found = .clearedWhileHeld }
        world.actors[me].pc = slot + 1 < world.actors[me].count ? .read(slot: slot + 1) : .leave

      case .leave:
        world.touch(by: me, found: &found)
        // A handler may run until the post leaves: no entry it read may be released before.
        if world.actors[me].clearedWhileHeld != 0 { found = .clearedWhileHeld }
        let storage = world.actors[me].held
        world[storage: storage].holders -= 1
        let remaining = world[storage: storage].holders
        world.actors[me] = Actor(pc: .done)
        if remaining == 0 && mutation != .leaveIgnoresNeedsCleanup {
          world.actors[me].pc = .loadNeedsCleanup
        }
      case .loadNeedsCleanup:
        world.actors[me].pc = world.needsCleanup ? .lockToCleanUp : .done

      case .lockToCleanUp:
        guard world.takeLock(me) else { return false }
        world.actors[me].pc = tidy(world)
      case .unlock:
        world.lockOwner = nil
        world.actors[me].pc = world.actors[me].resume

      case .lockToRemove:
        guard world.takeLock(me) else { return false }
        startOperation(of: me, in: &world)
        // Cancelling and bookkeeping touch only what the lock guards, and a storage of fewer
        // than 16 slots is not compacted: the slot is cleared now when nothing waits and no
        // post holds the storage, and goes to `pending` otherwise.
        world.actors[me].pc =
          !world.pending.isEmpty || !world.retired.isEmpty
          ? .raiseNeedsCleanup
          : mutation == .clearNowIgnoresHolders ? .clearRemoved : .loadHoldersToClearNow
      case .raiseNeedsCleanup:
        // Appending to `pending` is guarded by the lock: merged into this step.
        world.pending.append(removedSlot(in: world))
        world.needsCleanup = true
        world.actors[me].pc = tidy(world)

      case .loadHoldersToClearNow:
        world.actors[me].pc =
          world[storage: world.current].holders == 0 ? .takeDown(.clearNow) : .raiseNeedsCleanup
      case .clearRemoved:
        world.clear(removedSlot(in: world), of: world.current)
        world.actors[me].pc = .publishCleared
      case .publishCleared:
        world.published = world.current
        world.actors[me].pc = .unlock

      case .lockToInsert:
        guard world.takeLock(me) else { return false }
        startOperation(of: me, in: &world)
        // `place` finds the storage full: `rebuild`.
        world.actors[me].pc = .loadOldHolders
      case .loadOldHolders:
        if world[storage: world.current].holders == 0 {
          world.actors[me].pc = .takeDown(.rebuild)
        } else {
          world.actors[me].exclusive = false
          world.actors[me].pc = .replaceStorage
        }
      case .replaceStorage:
        let exclusive = world.actors[me].exclusive
        replaceStorage(in: &world, exclusive: exclusive)
        world.actors[me].pc = exclusive ? .publishReplacement : .raiseNeedsCleanupForRetired
      case .raiseNeedsCleanupForRetired:
        world.needsCleanup = true
        world.actors[me].pc = .publishReplacement
      case .publishReplacement:
        world.published = world.current
        world.actors[me].pc = tidy(world)

      case .takeDown(let caller):
        world.published = 0
        world.actors[me].pc =
          mutation == .takeExclusiveIgnoresReaders ? .loadHolders(caller) : .loadReaders(caller)
      case .loadReaders(let caller):
        if world.readers == 0 {
          world.actors[me].pc = .loadHolders(caller)
        } else {
          world.actors[me].exclusive = false
          world.actors[me].pc = afterTakeExclusive(caller, exclusive: false)
        }
      case .loadHolders(let caller):
        let exclusive = world[storage: world.current].holders == 0
        world.actors[me].exclusive = exclusive
        world.actors[me].pc = afterTakeExclusive(caller, exclusive: exclusive)

      case .loadHoldersForPending:
        world.actors[me].pc =
          world[storage: world.current].holders == 0 ? .takeDown(.tidy) : .publishAgain
      case .clearPending:
        for slot in world.pending where world[storage: world.current].slots[slot] != 0 {
          world.clear(slot, of: world.current)
        }
        world.pending = []
        world.actors[me].pc = .publishAgain
      case .publishAgain:
        world.published = world.current
        world.actors[me].pc = afterPending(world)
      case .raiseRetiredAwaitReaders:
        world.retiredAwaitReaders = true
        world.actors[me].pc = .loadReadersForRetired
      case .loadReadersForRetired:
        world.actors[me].pc = world.readers == 0 ? .lowerRetiredAwaitReaders : afterRetired(world)
      case .lowerRetiredAwaitReaders:
        world.retiredAwaitReaders = false
        world.actors[me].pc = .loadRetiredHolders(index: 0)
      case .loadRetiredHolders(let index):
        let storage = world.retired[index]
        var next = index
        if world[storage: storage].holders == 0 {
          world[storage: storage].isFreed = true
          world.retired.remove(at: index)
        } else {
          next += 1
        }
        world.actors[me].pc =
          next < world.retired.count ? .loadRetiredHolders(index: next) : afterRetired(world)
      case .lowerNeedsCleanup:
        world.needsCleanup = false
        world.actors[me].pc = .unlock
      }
      return true
    }

    /// The slot of the entry the writer's removal ends, in the current storage.
    func removedSlot(in world: World) -> Int {
      world[storage: world.current].slots.firstIndex(of: scenario.removedEntry)!
    }

    func firstRead(of post: Actor) -> Step { post.count > 0 ? .read(slot: 0) : .leave }

    /// Sets where the writer goes once this operation's critical section ends.
    func startOperation(of me: Int, in world: inout World) {
      world.actors[me].resume =
        world.actors[me].laterOperations.isEmpty
        ? .done : world.actors[me].laterOperations.removeFirst()
    }

    func afterTakeExclusive(_ caller: Caller, exclusive: Bool) -> Step {
      switch caller {
      case .tidy: exclusive ? .clearPending : .publishAgain
      case .rebuild: .replaceStorage
      case .clearNow: exclusive ? .clearRemoved : .raiseNeedsCleanup
      }
    }

    /// `rebuild` once it knows whether the old storage is its alone: a new one with the
    /// registered entries and the inserted one, not yet published.
    func replaceStorage(in world: inout World, exclusive: Bool) {
      let old = world.current
      let removed = world.pending.map { world[storage: old].slots[$0] }
      let kept = world[storage: old].slots.filter { $0 != 0 && !removed.contains($0) }
      world.storages.append(Storage(slots: kept + [Self.insertedEntry]))
      world.current = world.storages.count
      world.pending = []
      if exclusive {
        for slot in world[storage: old].slots.indices { world.clear(slot, of: old) }
        world[storage: old].isFreed = true
      } else {
        world.retired.append(old)
      }
    }

    /// `tidy(_:into:)` starts with tests of what the lock guards; its first shared access is
    /// the first step. It ends every critical section that runs it, hence the unlock after it.
    /// Retired storages first, then pending slots, as the real `tidy` does.
    func tidy(_ world: World) -> Step {
      mutation == .tidyPendingBeforeRetired ? pendingPart(world) : retiredPart(world)
    }

    func retiredPart(_ world: World) -> Step {
      guard !world.retired.isEmpty else { return afterRetired(world) }
      return mutation == .tidyIgnoresReaders
        ? .loadRetiredHolders(index: 0) : .raiseRetiredAwaitReaders
    }

    func afterRetired(_ world: World) -> Step {
      mutation == .tidyPendingBeforeRetired ? tidyEnd(world) : pendingPart(world)
    }

    func pendingPart(_ world: World) -> Step {
      guard !world.pending.isEmpty else { return afterPending(world) }
      return mutation == .tidyIgnoresHolders ? .clearPending : .loadHoldersForPending
    }

    func afterPending(_ world: World) -> Step {
      mutation == .tidyPendingBeforeRetired ? retiredPart(world) : tidyEnd(world)
    }

    func tidyEnd(_ world: World) -> Step {
      world.pending.isEmpty && world.retired.isEmpty ? .lowerNeedsCleanup : .unlock
    }

    /// What waits that should not once every actor is done but a post parked in its handlers
    /// (which can take any time), holding `parked` (0: none). Only what it holds may wait.
    func leftover(in world: World, parkedOn parked: Int) -> String? {
      let waits = !world.pending.isEmpty || !world.retired.isEmpty
      if !world.pending.isEmpty && world.current != parked {
        return "pending slots \(world.pending)"
      }
      if world.retired.contains(where: { $0 != parked }) {
        return "retired storages \(world.retired)"
      }
      if world.needsCleanup != waits { return "needsCleanup is \(world.needsCleanup)" }
      if world.retiredAwaitReaders { return "retiredAwaitReaders raised" }
      if world.published != world.current { return "published is \(world.published)" }
      if world.lockOwner != nil || world.readers != 0 { return "lock held or readers left" }
      for id in 1...world.storages.count {
        let storage = world[storage: id]
        if storage.holders != (id == parked ? 1 : 0) { return "storage \(id) held" }
        if storage.isFreed == (id == world.current || world.retired.contains(id)) {
          return "storage \(id) freed wrongly"
        }
      }
      let slots = world[storage: world.current].slots
      let live = slots.indices.filter { slots[$0] != 0 && !world.pending.contains($0) }
      if live.map({ slots[$0] }) != scenario.liveAtEnd {
        return "current storage holds \(slots), pending \(world.pending)"
      }
      return nil
    }
  }

  /// Depth-first search over every interleaving, each state explored once: the executions
  /// from a state depend on the state alone, so a state reached again adds its count.
  struct Explorer {
    let model: Model
    /// The complete executions from each state explored.
    private var executions: [World: Int] = [:]
    /// The first execution found of each violation, as the steps that led to it.
    private(set) var findings: [Violation: String] = [:]
    private var path: [(actor: Int, step: Step)] = []

    init(model: Model) { self.model = model }

    var report: String {
      findings.values.sorted().joined(separator: "\n\n")
    }

    /// Explores every execution; returns how many there are.
    @discardableResult
    mutating func run() -> Int { explore(model.start) }

    private mutating func explore(_ world: World) -> Int {
      if let known = executions[world] { return known }
      let running = world.actors.filter { $0.pc != .done }
      if running.isEmpty {
        if let leftover = model.leftover(in: world, parkedOn: 0) { record(.lostCleanup, leftover) }
      } else if running.count == 1, running[0].isInHandlers,
        let leftover = model.leftover(in: world, parkedOn: running[0].held)
      {
        record(.cleanupWaitsForParkedPost, leftover)
      }
      var total = 0
      if running.isEmpty {
        total = 1
      } else {
        var stepped = false
        for actor in world.actors.indices {
          var next = world
          var found: Violation?
          guard model.step(actor, in: &next, found: &found) else { continue }
          stepped = true
          path.append((actor, world.actors[actor].pc))
          if let found { record(found, "at the last step") }
          total += explore(next)
          path.removeLast()
        }
        if !stepped {
          record(.deadlock, "no actor can step")
          total = 1
        }
      }
      executions[world] = total
      return total
    }

    private mutating func record(_ violation: Violation, _ detail: String) {
      guard findings[violation] == nil else { return }
      let steps = path.map { "  \(Model.name(of: $0.actor)): \($0.step)" }
      findings[violation] = "\(violation), \(detail), after:\n" + steps.joined(separator: "\n")
    }
  }
}
