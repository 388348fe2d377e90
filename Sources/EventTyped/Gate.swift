/// A switch that holds posts while closed and releases them, in order, when it opens.
///
/// Post with ``Event/post(_:when:)-(Payload,_)`` to deliver a payload only once a condition
/// holds, such as the app being in the foreground or a session being ready:
///
/// ```swift
/// let sessionReady = Gate()
/// Session.didChange.post(user, when: sessionReady)  // held
/// sessionReady.open()                               // delivered now
/// Session.didChange.post(user, when: sessionReady)  // delivered at once
/// ```
///
/// One gate may hold posts of many events: ``open()`` releases everything it holds, across
/// events, in the order it was posted, each post exactly once. A held post reaches the
/// registrations present when it is released, and is dropped if its event has been deallocated
/// by then.
///
/// ### Threading
/// Every member is thread-safe. Posts are released on the thread that calls ``open()``, one at a
/// time and after the gate's lock is released; a post made on another thread while a release is
/// in progress joins the end of the line and is delivered by the releasing thread, so order is
/// kept. ``close()`` stops a release before its next post: what was not yet delivered is held
/// for the next ``open()``.
public final class Gate: Sendable {
  typealias Post = @Sendable () -> Void

  private struct State: Sendable {
    var isOpen: Bool
    /// Posts waiting for the gate to open, oldest first.
    var held: [Post] = []
    /// Whether a thread is releasing `held`; posts then join the line instead of running.
    var isReleasing = false
  }

  private let state: Lock<State>

  /// Creates a gate.
  ///
  /// - Parameter isOpen: Whether posts pass at once (`true`) or are held until ``open()``
  ///   (`false`, the default).
  public init(isOpen: Bool = false) {
    state = Lock(State(isOpen: isOpen))
  }

  /// Opens the gate and delivers every held post, in the order they were posted.
  ///
  /// The posts run on the calling thread, before `open()` returns, unless another thread is
  /// already releasing them; opening an open gate does nothing. Safe to call from a handler:
  /// the posts it releases run after that handler returns.
  public func open() {
    let startsRelease = state.withLock { state -> Bool in
      state.isOpen = true
      guard !state.isReleasing, !state.held.isEmpty else { return false }
      state.isReleasing = true
      return true
    }
    if startsRelease { release() }
  }

  /// Closes the gate: posts made from now on are held until ``open()``.
  ///
  /// A release in progress on another thread stops before its next post. Thread-safe.
  public func close() {
    state.withLock { $0.isOpen = false }
  }

  /// Whether posts pass at once. Thread-safe; another thread may change it right after.
  public var isOpen: Bool {
    state.withLock { $0.isOpen }
  }

  /// Runs `post` now if the gate is open and nothing is held, otherwise holds it.
  func submit(_ post: @escaping Post) {
    let runsNow = state.withLock { state -> Bool in
      // Open and not releasing implies nothing is held: a release ends only when `held` is
      // empty or the gate is closed.
      if state.isOpen && !state.isReleasing { return true }
      state.held.append(post)
      return false
    }
    if runsNow { post() }
  }

  /// Delivers held posts one by one, outside the lock, until none is left or the gate closes.
  private func release() {
    while true {
      // Taken whole, so posts made during the release wait behind this batch.
      let batch = state.withLock { state -> [Post] in
        guard state.isOpen, !state.held.isEmpty else {
          state.isReleasing = false
          return []
        }
        defer { state.held = [] }
        return state.held
      }
      guard !batch.isEmpty else { return }
      for index in batch.indices {
        let isStillOpen = state.withLock { state -> Bool in
          guard !state.isOpen else { return true }
          state.held.insert(contentsOf: batch[index...], at: 0)
          state.isReleasing = false
          return false
        }
        guard isStillOpen else { return }
        batch[index]()
      }
    }
  }
}
