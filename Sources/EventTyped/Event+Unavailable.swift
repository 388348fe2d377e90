import EventCore

extension Event {
  /// A one-parameter closure registered with an observer does not compile, with a message
  /// saying the closure gets the observer and the payload: without this, Swift matches the
  /// closure to `function:` and reports "cannot convert value of type '()' to closure result
  /// type", or that it cannot infer the parameter's type.
  ///
  /// Disfavored and unavailable, so that it never wins over a valid call.
  @available(
    *, unavailable,
    message:
      "register(_:handler:) passes the observer and the payload: register(self) { me, value in ... }; for the payload alone, subscribe { value in ... }"
  )
  @_disfavoredOverload
  @discardableResult
  public func register<Observer: AnyObject>(
    _ observer: Observer, priority: Int = 0, handler: (Payload) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    fatalError("unavailable")
  }
}
