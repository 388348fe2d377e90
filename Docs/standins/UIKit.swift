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
  public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { super.init() }
  public required init?(coder: NSCoder) { super.init() }
  // Objective-C's `init()`, which calls the designated initializer with no nib.
  public override convenience init() { self.init(nibName: nil, bundle: nil) }

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
