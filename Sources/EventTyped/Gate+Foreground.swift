#if canImport(UIKit) && !os(watchOS)
  import UIKit

  extension Gate {
    /// A gate that is open while the app is in the foreground: IZEvent's
    /// `postWhenAppEntersForeground`.
    ///
    /// It opens on `UIApplication.willEnterForegroundNotification` and
    /// `UIApplication.didBecomeActiveNotification`, and closes on
    /// `UIApplication.didEnterBackgroundNotification`; it starts open unless the app is in the
    /// background when you first use it. A scene-based app is still in the background while it
    /// launches, and a cold launch posts no `willEnterForegroundNotification`: a gate first used
    /// in `application(_:didFinishLaunchingWithOptions:)` or `scene(_:willConnectTo:options:)`
    /// starts closed and opens when the app first becomes active.
    ///
    /// ```swift
    /// Inbox.didReceive.post(message, when: .applicationForeground)
    /// ```
    ///
    /// Held posts are released on the main thread, as the app enters the foreground. Read it on
    /// the main actor; the gate itself may then be used from any thread.
    ///
    /// Not available in app extensions, which have no `UIApplication.shared` (visionOS and Mac
    /// Catalyst extensions inherit the iOS attribute; tvOS extensions need their own).
    @MainActor
    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    public static let applicationForeground: Gate = {
      let gate = Gate(isOpen: UIApplication.shared.applicationState != .background)
      let center = NotificationCenter.default
      // The observations last as long as the app: the gate is a `static let`. Each is posted on
      // the main thread, where this runs, so none can slip between the read above and them.
      for opening in [
        UIApplication.willEnterForegroundNotification, UIApplication.didBecomeActiveNotification,
      ] {
        _ = center.addObserver(forName: opening, object: nil, queue: nil) { _ in gate.open() }
      }
      _ = center.addObserver(
        forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil
      ) { _ in gate.close() }
      return gate
    }()
  }
#endif
