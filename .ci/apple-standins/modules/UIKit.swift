// Stand-in for UIKit: the declarations Events uses, as the iOS 18 SDK declares them
// (UIApplication.h: the class is NS_SWIFT_UI_ACTOR, the notification names
// NS_SWIFT_NONISOLATED). Like UIKit, it re-exports Foundation. Only type-checked against.

@_exported public import Foundation

@MainActor
open class UIResponder {
  public init() {}
}

@MainActor
open class UIApplication: UIResponder {
  @available(iOSApplicationExtension, unavailable)
  open class var shared: UIApplication { UIApplication() }

  open var applicationState: UIApplication.State { .active }

  public enum State: Int, @unchecked Sendable {
    case active = 0
    case inactive = 1
    case background = 2
  }

  nonisolated public static let didEnterBackgroundNotification = Notification.Name(
    "UIApplicationDidEnterBackgroundNotification")
  nonisolated public static let willEnterForegroundNotification = Notification.Name(
    "UIApplicationWillEnterForegroundNotification")
  nonisolated public static let didFinishLaunchingNotification = Notification.Name(
    "UIApplicationDidFinishLaunchingNotification")
  nonisolated public static let didBecomeActiveNotification = Notification.Name(
    "UIApplicationDidBecomeActiveNotification")
  nonisolated public static let willResignActiveNotification = Notification.Name(
    "UIApplicationWillResignActiveNotification")
  nonisolated public static let willTerminateNotification = Notification.Name(
    "UIApplicationWillTerminateNotification")
}
