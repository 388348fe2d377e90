import EventCore

extension NotificationReceiver {
  /// Ignores `name` in one receiver, or in every receiver that holds a conditioner of that
  /// name.
  ///
  /// Names are matched by value, so a name built at run time reaches the receivers that added
  /// an equal string. Each receiver reached applies the rules of ``ignore(_:)``: a disabled
  /// receiver, or one whose conditioner of that name is not ignorable, does nothing.
  ///
  /// ```swift
  /// NotificationReceiver.ignore("messages")                 // every receiver
  /// NotificationReceiver.ignore("messages", to: receiver)   // just this one
  /// ```
  ///
  /// - Parameters:
  ///   - name: The conditioner's name.
  ///   - receiver: The receiver to ignore it in; `nil` (the default) reaches every live
  ///     receiver, in the order they were created.
  /// - Complexity: O(*r* × *n*) for a broadcast, over *r* live receivers of *n* conditioners.
  ///   Thread-safe; each receiver's handlers run on the calling thread.
  public static func ignore(_ name: String, to receiver: NotificationReceiver? = nil) {
    if let receiver {
      receiver.ignore(name)
    } else {
      ReceiverDirectory.receivers.post(name)
    }
  }
}

/// Every live receiver, for broadcast ignores.
///
/// Held weakly: the directory never keeps a receiver alive, and a receiver leaves it in its
/// `deinit`.
enum ReceiverDirectory {
  static let receivers = ObserverList<String>()

  static func register(_ receiver: NotificationReceiver) {
    receivers.insert(
      ObserverEntry(observer: receiver, keyed: true, delivery: .synchronous) { receiver, name in
        receiver.ignore(name)
      })
  }

  static func unregister(_ receiver: NotificationReceiver) {
    receivers.removeObserver(receiver)
  }
}
