import EventCore
import EventRAII
public import Foundation

/// Records every notification of one name that a center delivers from now on, for a test to
/// read or wait for: ``EventRecorder`` for a `NotificationCenter`.
///
/// ```swift
/// @Test func changingTheThemeNotifies() async throws {
///   let center = NotificationCenter()
///   let notes = NotificationRecorder(center, name: .themeDidChange)
///   Theme(center: center).select(.dark)
///   let note = try await notes.next(timeout: .seconds(1))
///   #expect(note.userInfo?["theme"] as? String == "dark")
/// }
/// ```
///
/// It records synchronously, on the posting thread, keeps the center alive, and stops when it
/// is released or ``cancel()``ed. Thread-safe.
public final class NotificationRecorder: Sendable {
  /// The center observed, kept alive by the recorder.
  public let center: NotificationCenter
  private let recording = Recording<RecordedNotification>()
  private let registration: Subscription

  /// Starts recording the notifications named `name` that `center` delivers.
  ///
  /// - Parameters:
  ///   - center: The center to observe; the recorder keeps it alive.
  ///   - name: The notifications to record.
  ///   - object: Record only those posted by this object, matched by identity and held weakly;
  ///     `nil`, the default, records any sender.
  public init(_ center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
    self.center = center
    let recording = recording
    registration = center.observe(name, object: object) {
      recording.record(RecordedNotification(notification: $0))
    }
  }

  /// Every notification recorded, in post order.
  public var notifications: [Notification] {
    recording.values.map(\.notification)
  }

  /// How many notifications were recorded.
  public var count: Int {
    notifications.count
  }

  /// The next notification not yet returned by `next`, waiting for at most `timeout` for one.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; 5 seconds unless given.
  ///   - isolation: The caller's actor, which the notification is handed to: `Notification`
  ///     is not `Sendable`, so the call stays on it.
  /// - Returns: The next unread notification.
  /// - Throws: ``/EventCore/EventTimeout`` when none is posted in time, `CancellationError`
  ///   when the task is cancelled first.
  public func next(
    timeout: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation
  ) async throws -> Notification {
    try await recording.next(timeout: timeout).notification
  }

  /// Stops recording; what was recorded stays readable.
  public func cancel() {
    registration.cancel()
  }
}

/// A recorded notification, as a `Sendable` value.
///
/// `Notification` is not `Sendable` (its `object` and `userInfo` are `Any`). `@unchecked
/// Sendable` is safe here for the reason Foundation's own
/// `addObserver(forName:object:queue:using:)` hands the same value to another queue: it is
/// immutable once posted, the test reads it as a copy, and the sender and `userInfo` it references
/// are what the poster shared with every observer of the center.
struct RecordedNotification: @unchecked Sendable {
  let notification: Notification
}
