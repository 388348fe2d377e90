/// ``Subscription`` under a name that no Apple framework uses.
///
/// Combine declares a `Subscription` protocol, and SwiftUI re-exports Combine, so in a file that
/// imports SwiftUI or Combine as well as Events, `Subscription` is ambiguous
/// (`'Subscription' is ambiguous for type lookup in this context`). Write `EventSubscription`
/// there; it is the same type, so its tokens go in the same sets and bags.
///
/// ```swift
/// private var subscriptions = Set<EventSubscription>()
/// ```
public typealias EventSubscription = Subscription

/// ``SubscriptionBag`` under a name that no Apple framework uses, for files that import SwiftUI
/// or Combine (see ``EventSubscription``).
public typealias EventSubscriptionBag = SubscriptionBag
