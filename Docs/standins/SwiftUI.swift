// Stand-in for SwiftUI's view layer, beside .ci/apple-standins/modules/SwiftUI.swift: what the
// articles' examples use, with the iOS 18 SDK's signatures (`View` and its `body` on the main
// actor, `task`'s closure inheriting the view's actor). Only type-checked against, by
// Docs/check-examples.sh.

@_exported public import Observation

@MainActor @preconcurrency
public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Body { get }
}

extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

@resultBuilder
public enum ViewBuilder {
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock<each Content: View>(_ content: repeat each Content)
    -> TupleView<(repeat each Content)>
  { TupleView() }
}

public struct EmptyView: View {
  nonisolated public init() {}
  public var body: Never { fatalError() }
}

public struct TupleView<T>: View {
  nonisolated public init() {}
  public var body: Never { fatalError() }
}

public struct Text: View {
  nonisolated public init(_ content: String) {}
  public var body: Never { fatalError() }
}

public struct VStack<Content: View>: View {
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError() }
}

public struct Button<Label: View>: View {
  nonisolated public init(_ title: String, action: @escaping @MainActor () -> Void) where Label == Text {}
  public var body: Never { fatalError() }
}

public struct ModifiedContent<Content: View>: View {
  nonisolated public init() {}
  public var body: Never { fatalError() }
}

extension View {
  nonisolated public func task(
    priority: TaskPriority = .userInitiated,
    @_inheritActorContext _ action: @escaping @Sendable () async -> Void
  ) -> ModifiedContent<Self> { ModifiedContent() }

  nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedContent<Self> {
    ModifiedContent()
  }
}

@propertyWrapper
public struct State<Value> {
  private let box: Box
  public init(wrappedValue value: Value) { box = Box(value) }
  public var wrappedValue: Value {
    get { box.value }
    nonmutating set { box.value = newValue }
  }

  private final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
  }
}
