public import EventTyped

extension NotificationReceiver {
  /// Counts each value that `event` delivers as one arrival of `name`.
  ///
  /// Each delivery is handled exactly as ``check(_:)`` would be, on the thread the event's
  /// delivery names; the payload itself is not looked at.
  ///
  /// ```swift
  /// enum Sync {
  ///   static let didFetchPage = Event<Int>()
  /// }
  ///
  /// let receiver = NotificationReceiver()
  /// receiver.add(NotificationConditioner("pages", minCount: 3))
  /// receiver.listen(to: Sync.didFetchPage, as: "pages")
  ///   .store(in: &subscriptions)  // a Set<Subscription> property of the screen
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event whose posts to count.
  ///   - name: The conditioner each post counts for.
  ///   - fileID: The file the registration was written in, which `String(reflecting: event)`
  ///     shows; leave the default.
  ///   - line: The line the registration was written on; leave the default.
  /// - Returns: A subscription that keeps counting: cancel or release it to stop. It holds the
  ///   receiver weakly.
  /// - Complexity: O(1) per registration. Thread-safe.
  public func listen<P>(
    to event: Event<P>, as name: String, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    event.subscribe({ [weak self] _ in self?.check(name) }, fileID: fileID, line: line)
  }
}
