/// What a once-registration with a filter tells when the list ends it without a claim
/// (``ObserverList/removeAll()``): a waiting `next`, which no post can settle any more, ends
/// instead of waiting for ever.
@usableFromInline package protocol RemovalObserving: AnyObject, Sendable {
  /// Called once, after every lock, on the thread that ended the registration.
  func registrationRemoved()
}
