import Events
import Foundation

// `CGRect` and its members live in CoreGraphics on Apple platforms, in Foundation on Linux.
#if canImport(CoreGraphics)
  import CoreGraphics
#endif

/// `broadcast`: the refactor from SwiftNotificationCenter's story. Instead of every screen
/// observing the keyboard notification and digging frames out of `userInfo`, one mediator
/// observes it and turns it into a typed call on every `KeyboardObserver`.
///
/// The mediator notifies from the thread the system posts on, a background queue; the screen's
/// parts are `@MainActor` and conform through an isolated conformance
/// (`extension MessageComposer: @MainActor KeyboardObserver`), so each registered from the main
/// actor and every call reaches it there.
enum BroadcastDemo {
  @MainActor
  static func run() async -> Bool {
    let report = DemoReport(
      name: "broadcast",
      title: "a keyboard notification becomes a typed protocol call (EventBroadcast)",
      scenarios: 3)
    let center = NotificationCenter()
    let system = SimulatedKeyboard(center: center)
    var mediator: KeyboardMediator? = KeyboardMediator(center: center)
    let screen = ChatScreen()
    let calls = screen.calls

    await report.scenario(
      "a background notify reaches 3 main-actor observers on the main actor, as typed calls"
    ) {
      system.show(height: 336)
      let arrived = await calls.wait(for: 3)
      report.check(
        arrived,
        "the mediator notified on keyboard.system, a background queue, and all 3 observers got it")
      report.check(
        calls.all == [
          "composer will show on main actor", "transcript will show on main actor",
          "stickers will show on main actor",
        ],
        "each got keyboardWillShow(beginFrame:endFrame:) on the main actor, in registration order,"
          + " though notify ran off it")
      report.check(
        screen.composer.bottomInset == 336,
        "the composer read the end frame from a typed parameter: no userInfo, no casts")
    }

    await report.scenario("the sticker panel goes away mid-run and is skipped, with no unregister")
    {
      weak var stickers: StickerPanel?
      stickers = screen.stickers
      report.check(
        Broadcaster.observerCount((any KeyboardObserver).self) == 3, "3 observers before the hide")
      system.hide()
      let arrived = await calls.wait(for: 5)
      report.check(arrived, "KeyboardWillHide reached the composer and the transcript")
      report.check(
        stickers == nil,
        "the composer closed the sticker panel during the notification, and it was deallocated")
      report.check(
        Array(calls.all.dropFirst(3)) == [
          "composer will hide on main actor", "transcript will hide on main actor",
        ],
        "the sticker panel's call, queued on the main actor, found it released and never ran")
      report.check(
        Broadcaster.observerCount((any KeyboardObserver).self) == 2,
        "the observer count dropped to 2 by itself")
    }

    await report.scenario("the mediator's observation ends with the mediator") {
      let witness = Arrivals<String>()
      let token = center.observe(.keyboardWillShow, delivery: .mainActor) { _ in
        DemoLog.event("witness: KeyboardWillShow was posted")
        witness.record("posted")
      }
      weak var releasedMediator: KeyboardMediator?
      releasedMediator = mediator
      mediator = nil
      DemoLog.event("mediator released (it never called removeObserver)")
      system.show(height: 280)
      let posted = await witness.wait(for: 1)
      report.check(releasedMediator == nil, "the mediator was deallocated")
      report.check(
        posted && calls.count == 5,
        "the witness, registered after the mediator, got the post; no keyboard observer did")
      token.cancel()
    }
    return report.finish()
  }
}

extension Notification.Name {
  /// A stand-in for UIKit's keyboard notification, which Linux does not have.
  static let keyboardWillShow = Notification.Name("KeyboardWillShowNotification")
  static let keyboardWillHide = Notification.Name("KeyboardWillHideNotification")
}

/// The `userInfo` keys of the keyboard notifications.
enum KeyboardInfoKey {
  static let frameBegin = "KeyboardFrameBeginUserInfoKey"
  static let frameEnd = "KeyboardFrameEndUserInfoKey"
}

/// Posts keyboard notifications from a background queue, as the system would.
private final class SimulatedKeyboard: Sendable {
  private let center: NotificationCenter
  private let queue = ExecutionContext.queue("keyboard.system")
  private static let screen = CGRect(x: 0, y: 0, width: 390, height: 844)

  init(center: NotificationCenter) {
    self.center = center
  }

  func show(height: Double) {
    post(.keyboardWillShow, from: Self.hidden, to: Self.frame(height: height))
  }

  func hide() {
    post(.keyboardWillHide, from: Self.frame(height: 336), to: Self.hidden)
  }

  private static var hidden: CGRect { frame(height: 0) }

  private static func frame(height: Double) -> CGRect {
    CGRect(x: 0, y: screen.height - height, width: screen.width, height: height)
  }

  private func post(_ name: Notification.Name, from begin: CGRect, to end: CGRect) {
    let center = center
    queue.async {
      DemoLog.event("system posts \(name.rawValue), end frame height \(Int(end.height))")
      center.post(
        name: name, object: nil,
        userInfo: [KeyboardInfoKey.frameBegin: begin, KeyboardInfoKey.frameEnd: end])
    }
  }
}

/// What a screen element learns about the keyboard, as typed calls.
protocol KeyboardObserver: AnyObject {
  func keyboardWillShow(beginFrame: CGRect, endFrame: CGRect)
  func keyboardWillHide(beginFrame: CGRect, endFrame: CGRect)
}

/// Observes the keyboard notifications once, for everybody, and forwards them as typed calls,
/// on the thread the system posts on: each observer's registration takes the call to its actor.
///
/// Its observations are bound to it: when it is released they end, with no `removeObserver`.
private final class KeyboardMediator: Sendable {
  init(center: NotificationCenter) {
    center.observe(.keyboardWillShow, owner: self) { _, note in
      guard let (begin, end) = Self.frames(note) else { return }
      DemoLog.event(
        "mediator on \(ExecutionContext.current): KeyboardWillShow -> "
          + "KeyboardObserver.keyboardWillShow")
      Broadcaster.notify((any KeyboardObserver).self) {
        $0.keyboardWillShow(beginFrame: begin, endFrame: end)
      }
    }
    center.observe(.keyboardWillHide, owner: self) { _, note in
      guard let (begin, end) = Self.frames(note) else { return }
      DemoLog.event(
        "mediator on \(ExecutionContext.current): KeyboardWillHide -> "
          + "KeyboardObserver.keyboardWillHide")
      Broadcaster.notify((any KeyboardObserver).self) {
        $0.keyboardWillHide(beginFrame: begin, endFrame: end)
      }
    }
  }

  /// The only place that reads `userInfo`.
  private static func frames(_ note: Notification) -> (CGRect, CGRect)? {
    guard let begin = note.userInfo?[KeyboardInfoKey.frameBegin] as? CGRect,
      let end = note.userInfo?[KeyboardInfoKey.frameEnd] as? CGRect
    else { return nil }
    return (begin, end)
  }
}

/// A chat screen whose three parts follow the keyboard.
@MainActor private final class ChatScreen {
  let calls = Arrivals<String>()
  let composer: MessageComposer
  let transcript: Transcript
  private(set) var stickers: StickerPanel?

  init() {
    composer = MessageComposer(calls: calls)
    transcript = Transcript(calls: calls)
    stickers = StickerPanel(calls: calls)
    composer.onHide = { [weak self] in
      DemoLog.event("composer closes the sticker panel")
      self?.stickers = nil
    }
  }
}

/// Moves the text field above the keyboard. Registered from the main actor, through its
/// isolated conformance: called on the main actor only.
@MainActor private final class MessageComposer {
  private let calls: Arrivals<String>
  private(set) var bottomInset = 0.0
  var onHide: () -> Void = {}

  init(calls: Arrivals<String>) {
    self.calls = calls
    Broadcaster.register((any KeyboardObserver).self, observer: self)
  }

}

extension MessageComposer: @MainActor KeyboardObserver {
  func keyboardWillShow(beginFrame: CGRect, endFrame: CGRect) {
    bottomInset = endFrame.height
    DemoLog.event("composer moves up by \(Int(endFrame.height)) pt")
    calls.record("composer will show on \(ExecutionContext.current)")
  }

  func keyboardWillHide(beginFrame: CGRect, endFrame: CGRect) {
    bottomInset = 0
    DemoLog.event("composer moves back down")
    calls.record("composer will hide on \(ExecutionContext.current)")
    onHide()
  }
}

/// Keeps the last message visible.
@MainActor private final class Transcript {
  private let calls: Arrivals<String>

  init(calls: Arrivals<String>) {
    self.calls = calls
    Broadcaster.register((any KeyboardObserver).self, observer: self)
  }

}

extension Transcript: @MainActor KeyboardObserver {
  func keyboardWillShow(beginFrame: CGRect, endFrame: CGRect) {
    DemoLog.event("transcript scrolls to the last message")
    calls.record("transcript will show on \(ExecutionContext.current)")
  }

  func keyboardWillHide(beginFrame: CGRect, endFrame: CGRect) {
    DemoLog.event("transcript restores its inset")
    calls.record("transcript will hide on \(ExecutionContext.current)")
  }
}

/// A panel the user can close; while open it slides with the keyboard.
@MainActor private final class StickerPanel {
  private let calls: Arrivals<String>

  init(calls: Arrivals<String>) {
    self.calls = calls
    Broadcaster.register((any KeyboardObserver).self, observer: self)
  }

}

extension StickerPanel: @MainActor KeyboardObserver {
  func keyboardWillShow(beginFrame: CGRect, endFrame: CGRect) {
    DemoLog.event("sticker panel slides up")
    calls.record("stickers will show on \(ExecutionContext.current)")
  }

  func keyboardWillHide(beginFrame: CGRect, endFrame: CGRect) {
    DemoLog.event("sticker panel slides down")
    calls.record("stickers will hide on \(ExecutionContext.current)")
  }
}
