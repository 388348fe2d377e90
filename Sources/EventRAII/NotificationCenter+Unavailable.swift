public import EventCore
public import Foundation

extension NotificationCenter {
  /// A target-action that no available form takes does not compile, with a message naming what
  /// the forms need: without this, Swift reports the last overload it tried, "requires that
  /// 'Screen' conform to 'Actor'", which names nothing the caller got wrong.
  ///
  /// Disfavored, so that an actor target still gets the actor form's message; unavailable,
  /// which ranks it below every valid call.
  @available(
    *, unavailable,
    message:
      "target-action needs a Sendable target with its method named through the class (Screen.refresh, not Self.refresh), or a @MainActor target and method; otherwise observe with an owner: observe(name, owner: self) { me, note in me.refresh(note) }"
  )
  @_disfavoredOverload
  public func observe<Target: AnyObject, Action>(
    _ name: Notification.Name?, object: AnyObject? = nil, target: Target, action: Action,
    delivery: Delivery = .synchronous, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Subscription {
    fatalError("unavailable")
  }
}
