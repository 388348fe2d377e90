#if canImport(UIKit) && !os(watchOS)
  import UIKit

  extension Gate {
    /// A gate that is open while the app is in the foreground: IZEvent's
    /// `postWhenAppEntersForeground`.
    ///
    /// It opens on `UIApplication.willEnterForegroundNotification` and closes on
    /// `UIApplication.didEnterBackgroundNotification`; it starts open unless the app is in the
    /// background when you first use it.
    ///
    /// ```swift
    /// Inbox.didReceive.post(message, when: .applicationForeground)
    /// ```
    ///
    /// Held posts are released on the main thread, as the app enters the foreground. Read it on
    /// the main actor; the gate itself may then be used from any thread.
    @MainActor
    @available(iOSApplicationExtension, unavailable)
    public static let applicationForeground: Gate = {
      let gate = Gate(isOpen: UIApplication.shared.applicationState != .background)
      let center = NotificationCenter.default
      // The observations last as long as the app: the gate is a `static let`.
      _ = center.addObserver(
        forName: UIApplication.willEnterForegroundNotification, object: nil, queue: nil
      ) { _ in gate.open() }
      _ = center.addObserver(
        forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil
      ) { _ in gate.close() }
      return gate
    }()
  }
#endif
