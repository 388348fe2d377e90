// Stand-in for UIKit's view controllers, beside .ci/apple-standins/modules/UIKit.swift: what
// the articles' examples use, with the iOS 18 SDK's signatures (every class `@MainActor`, the
// notification names `nonisolated`). Only type-checked against, by Docs/check-examples.sh.

open class UIView: UIResponder {
  open func addSubview(_ view: UIView) {}
}

open class UILabel: UIView {
  open var text: String?
}

open class UIViewController: UIResponder {
  open var title: String?
  open var view: UIView! = UIView()
  open func viewDidLoad() {}
  open func viewWillAppear(_ animated: Bool) {}
  open func viewDidDisappear(_ animated: Bool) {}
}

extension UIApplication {
  nonisolated public static let didReceiveMemoryWarningNotification = Notification.Name(
    "UIApplicationDidReceiveMemoryWarningNotification")
}
