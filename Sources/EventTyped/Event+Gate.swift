extension Event {
  /// Delivers `payload` now if `gate` is open; otherwise holds it and delivers it, once, when the
  /// gate opens.
  ///
  /// ```swift
  /// let foreground = Gate(isOpen: false)
  /// Inbox.didReceive.post(message, when: foreground)
  /// foreground.open()  // the message is delivered here
  /// ```
  ///
  /// Held posts are delivered in the order they were posted, across every event that posts
  /// through the same gate, to the registrations present when the gate opens, with the event's
  /// delivery. A held post whose event has been deallocated by then is dropped.
  ///
  /// Thread-safe. On an open gate, with `.synchronous` delivery, the handlers have run when it
  /// returns, unless another thread is releasing held posts of the gate: then this post is
  /// delivered by that thread, after them.
  ///
  /// - Parameters:
  ///   - payload: The value handed to every handler.
  ///   - gate: The gate that decides when the post is delivered.
  public func post(_ payload: Payload, when gate: Gate) {
    gate.submit { [weak self] in self?.post(payload) }
  }

  /// Delivers the payload's elements, given one by one, now if `gate` is open, otherwise once it
  /// opens: `post(when: gate)` for `Event<Void>`, `post("a", 3, when: gate)` for
  /// `Event<(String, Int)>`.
  ///
  /// The same as ``post(_:when:)-(Payload,_)`` with the elements made into a tuple.
  ///
  /// - Parameters:
  ///   - element: The payload's elements, in order.
  ///   - gate: The gate that decides when the post is delivered.
  public func post<each Element>(_ element: repeat each Element, when gate: Gate)
  where Payload == (repeat each Element) {
    post((repeat each element), when: gate)
  }
}
