// Stand-in for Combine: the names that meet Events' (`Subscription`), and what a SwiftUI model
// declares with (`ObservableObject`, `@Published`). Only type-checked against.

public struct CombineIdentifier: Hashable, Sendable {
  public init() {}
}

public protocol CustomCombineIdentifierConvertible {
  var combineIdentifier: CombineIdentifier { get }
}

public protocol Cancellable {
  func cancel()
}

public enum Subscribers {
  public struct Demand: Equatable, Hashable, Sendable {
    public static let unlimited = Demand()
  }
}

public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  func request(_ demand: Subscribers.Demand)
}

public final class AnyCancellable: Cancellable, Hashable {
  public init(_ cancel: @escaping () -> Void) {}
  public func cancel() {}
  public func store(in set: inout Set<AnyCancellable>) {}
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

public protocol ObservableObject: AnyObject {}

@propertyWrapper
public struct Published<Value> {
  public var wrappedValue: Value
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}
