public import EventCore
public import Foundation

// Foundation's typed messages (swift-foundation proposal SF-0011), given the same RAII tokens as
// notifications: the registration ends when its `Subscription` is cancelled or released, so a
// user of the typed API never calls `removeObserver(_:)` either.

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension NotificationCenter {
  /// Observes an asynchronous message until the returned subscription is cancelled or released.
  ///
  /// The token form of Foundation's `addObserver(of:for:using:)`:
  ///
  /// ```swift
  /// struct DidSave: NotificationCenter.AsyncMessage {
  ///   typealias Subject = Document
  ///   let path: String
  /// }
  ///
  /// NotificationCenter.default.observe(for: DidSave.self) { message in
  ///   print("saved \(message.path)")
  /// }
  /// .store(in: &subscriptions)  // a Set<Subscription> that lives as long as the observation
  /// ```
  ///
  /// As with Foundation's own `ObservationToken`, the observation keeps the center alive until
  /// the subscription is cancelled or released; the same holds for the forms that name the
  /// message by its identifier.
  ///
  /// ### Threading
  /// Thread-safe. The center runs the handler asynchronously, on the handler's own isolation (a
  /// closure isolated to a global actor runs on that actor). A call that has not started when
  /// ``/EventCore/Subscription/cancel()`` returns never starts; `cancel()` does not wait for one
  /// that has.
  ///
  /// - Parameters:
  ///   - subject: The subject to observe, matched as the center matches it; `nil` for any.
  ///   - messageType: The message type to observe.
  ///   - handler: The closure to call with each message.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Message: AsyncMessage>(
    of subject: Message.Subject? = nil, for messageType: Message.Type,
    _ handler: @escaping @isolated(any) @Sendable (Message) async -> Void
  ) -> Subscription where Message.Subject: AnyObject {
    let liveness = Liveness()
    let token = addObserver(of: subject, for: messageType) { message in
      await Self.deliver(message, to: handler, ifLive: liveness, on: handler.isolation)
    }
    return subscription(removing: token, liveness: liveness)
  }

  /// Observes an asynchronous message of one subject, named by its identifier, until the
  /// returned subscription is cancelled or released.
  ///
  /// ```swift
  /// center.observe(of: document, for: .didSave) { message in print(message.path) }
  ///   .store(in: &subscriptions)
  /// ```
  ///
  /// ### Threading
  /// As for the message type, ``observe(of:for:_:)-5y07w``: the center runs the handler
  /// asynchronously, on its own isolation.
  ///
  /// - Parameters:
  ///   - subject: The subject to observe.
  ///   - identifier: The identifier of the message type, such as `.didSave`.
  ///   - handler: The closure to call with each message.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Identifier: MessageIdentifier, Message: AsyncMessage>(
    of subject: Message.Subject, for identifier: Identifier,
    _ handler: @escaping @isolated(any) @Sendable (Message) async -> Void
  ) -> Subscription where Message == Identifier.MessageType, Message.Subject: AnyObject {
    let liveness = Liveness()
    let token = addObserver(of: subject, for: identifier) { (message: Message) in
      await Self.deliver(message, to: handler, ifLive: liveness, on: handler.isolation)
    }
    return subscription(removing: token, liveness: liveness)
  }

  /// Observes an asynchronous message whose subject is a type, named by its identifier, until
  /// the returned subscription is cancelled or released.
  ///
  /// ### Threading
  /// As for the message type, ``observe(of:for:_:)-5y07w``: the center runs the handler
  /// asynchronously, on its own isolation.
  ///
  /// - Parameters:
  ///   - subject: The subject type to observe.
  ///   - identifier: The identifier of the message type.
  ///   - handler: The closure to call with each message.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Identifier: MessageIdentifier, Message: AsyncMessage>(
    of subject: Message.Subject.Type, for identifier: Identifier,
    _ handler: @escaping @isolated(any) @Sendable (Message) async -> Void
  ) -> Subscription where Message == Identifier.MessageType {
    let liveness = Liveness()
    let token = addObserver(of: subject, for: identifier) { (message: Message) in
      await Self.deliver(message, to: handler, ifLive: liveness, on: handler.isolation)
    }
    return subscription(removing: token, liveness: liveness)
  }

  /// Observes a main-actor message until the returned subscription is cancelled or released.
  ///
  /// The token form of Foundation's `addObserver(of:for:using:)` for messages posted on the
  /// main actor:
  ///
  /// ```swift
  /// struct DidSelect: NotificationCenter.MainActorMessage {
  ///   typealias Subject = Document
  /// }
  ///
  /// NotificationCenter.default.observe(for: DidSelect.self) { _ in
  ///   print("selected")
  /// }
  /// .store(in: &subscriptions)  // a Set<Subscription> that lives as long as the observation
  /// ```
  ///
  /// As with Foundation's own `ObservationToken`, the observation keeps the center alive until
  /// the subscription is cancelled or released.
  ///
  /// ### Threading
  /// Thread-safe to call. The center runs the handler on the main actor, synchronously within
  /// `post`. After ``/EventCore/Subscription/cancel()`` returns, it is not called again.
  ///
  /// - Parameters:
  ///   - subject: The subject to observe, matched as the center matches it; `nil` for any.
  ///   - messageType: The message type to observe.
  ///   - handler: The closure to call with each message.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Message: MainActorMessage>(
    of subject: Message.Subject? = nil, for messageType: Message.Type,
    _ handler: @escaping @MainActor (Message) -> Void
  ) -> Subscription where Message.Subject: AnyObject {
    let liveness = Liveness()
    let token = addObserver(of: subject, for: messageType) { message in
      liveness.invokeIfLive { handler(message) }
    }
    return subscription(removing: token, liveness: liveness)
  }

  /// Observes a main-actor message of one subject, named by its identifier, until the returned
  /// subscription is cancelled or released.
  ///
  /// ### Threading
  /// As for the message type, ``observe(of:for:_:)-22sdm``: on the main actor, within `post`.
  ///
  /// - Parameters:
  ///   - subject: The subject to observe.
  ///   - identifier: The identifier of the message type.
  ///   - handler: The closure to call with each message.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Identifier: MessageIdentifier, Message: MainActorMessage>(
    of subject: Message.Subject, for identifier: Identifier,
    _ handler: @escaping @MainActor (Message) -> Void
  ) -> Subscription where Message == Identifier.MessageType, Message.Subject: AnyObject {
    let liveness = Liveness()
    let token = addObserver(of: subject, for: identifier) { (message: Message) in
      liveness.invokeIfLive { handler(message) }
    }
    return subscription(removing: token, liveness: liveness)
  }

  /// Observes a main-actor message whose subject is a type, named by its identifier, until the
  /// returned subscription is cancelled or released.
  ///
  /// ### Threading
  /// As for the message type, ``observe(of:for:_:)-22sdm``: on the main actor, within `post`.
  ///
  /// - Parameters:
  ///   - subject: The subject type to observe.
  ///   - identifier: The identifier of the message type.
  ///   - handler: The closure to call with each message.
  /// - Returns: The token that keeps the observation alive; cancel or release it to end it.
  public func observe<Identifier: MessageIdentifier, Message: MainActorMessage>(
    of subject: Message.Subject.Type, for identifier: Identifier,
    _ handler: @escaping @MainActor (Message) -> Void
  ) -> Subscription where Message == Identifier.MessageType {
    let liveness = Liveness()
    let token = addObserver(of: subject, for: identifier) { (message: Message) in
      liveness.invokeIfLive { handler(message) }
    }
    return subscription(removing: token, liveness: liveness)
  }

  /// Calls `handler` with `message` on the handler's own isolation, if the observation is still
  /// live once there.
  ///
  /// The check runs after the hop to `isolation`, immediately before the call: checking first
  /// and then awaiting the handler would leave a window, as long as the actor stays busy, in
  /// which a `cancel()` returns and the handler still starts afterwards.
  private static func deliver<Message: AsyncMessage>(
    _ message: Message, to handler: @isolated(any) @Sendable (Message) async -> Void,
    ifLive liveness: Liveness, on isolation: isolated (any Actor)?
  ) async {
    guard liveness.isLive else { return }
    await handler(message)
  }

  /// The token that removes `token` from this center, sharing `liveness` with the handler so a
  /// run the center already scheduled is skipped once cancelled.
  ///
  /// Foundation's `ObservationToken` keeps its center alive, so the center lives until the
  /// subscription is released; the closure adds no reference of its own.
  private func subscription(removing token: ObservationToken, liveness: Liveness) -> Subscription {
    Subscription(liveness: liveness) { [weak self] in
      self?.removeObserver(token)
    }
  }
}
