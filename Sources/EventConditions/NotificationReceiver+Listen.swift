public import EventCore
public import Foundation

extension NotificationReceiver {
  /// Counts each notification named `name` that `center` delivers as one arrival of
  /// `name.rawValue`.
  ///
  /// Each delivery is handled exactly as ``check(_:)`` would be, on the posting thread. To count
  /// it under a conditioner name of your own, use ``listen(to:center:object:as:)``.
  ///
  /// ```swift
  /// let receiver = NotificationReceiver()
  /// receiver.add(NotificationConditioner("ProfileLoaded"))
  /// receiver.listen(to: Notification.Name("ProfileLoaded"))
  ///   .store(in: &subscriptions)  // a Set<Subscription> property of the screen
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification to count; its raw value is the conditioner's name.
  ///   - center: The center to observe; `.default` unless given.
  ///   - object: Count only notifications posted by this object, matched by identity and held
  ///     weakly (once it is gone, nothing is counted); `nil`, the default, counts any sender.
  /// - Returns: A subscription that keeps counting: cancel or release it to stop. It holds the
  ///   receiver weakly.
  /// - Complexity: O(1) per registration. Thread-safe.
  public func listen(
    to name: Notification.Name, center: NotificationCenter = .default, object: AnyObject? = nil
  ) -> Subscription {
    let conditionerName = name.rawValue
    return ArrivalObservation.observe(name, center: center, object: object) { [weak self] in
      self?.check(conditionerName)
    }
  }
}

extension NotificationReceiver {
  /// Counts each notification named `name` that `center` delivers as one arrival of the
  /// conditioner `conditionName`, whatever the notification is called.
  ///
  /// Names your notifications as your app does and your conditions as your screen does:
  ///
  /// ```swift
  /// let receiver = NotificationReceiver()
  /// receiver.add(NotificationConditioner("profile"))
  /// let listening = receiver.listen(
  ///   to: Notification.Name("GetUserProfileSuccessNotification"), as: "profile")
  /// ```
  ///
  /// Each delivery is handled exactly as ``check(_:)`` would be, on the posting thread.
  ///
  /// - Parameters:
  ///   - name: The notification to count.
  ///   - center: The center to observe; `.default` unless given.
  ///   - object: Count only notifications posted by this object, matched by identity and held
  ///     weakly (once it is gone, nothing is counted); `nil`, the default, counts any sender.
  ///   - conditionName: The conditioner each notification counts for.
  /// - Returns: A subscription that keeps counting: cancel or release it to stop. It holds the
  ///   receiver weakly.
  /// - Complexity: O(1) per registration. Thread-safe.
  public func listen(
    to name: Notification.Name, center: NotificationCenter = .default, object: AnyObject? = nil,
    as conditionName: String
  ) -> Subscription {
    ArrivalObservation.observe(name, center: center, object: object) { [weak self] in
      self?.check(conditionName)
    }
  }
}
