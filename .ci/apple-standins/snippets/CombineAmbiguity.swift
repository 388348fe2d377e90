// The stand-in Combine still meets Events' name, so the aliases above prove something.
// expect-error: 'Subscription' is ambiguous for type lookup in this context
import Events
import SwiftUI

final class Model: ObservableObject {
  private var subscriptions = Set<Subscription>()
}
