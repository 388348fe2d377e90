import Dispatch
import EventTestSupport
import Testing

@testable import EventCore

/// A global actor other than the main actor.
@globalActor
private actor ReinterpretationActor {
  static let shared = ReinterpretationActor()
}

/// An actor instance whose closures, written in its methods, are isolated to it.
private actor Tally {
  var values: [Int] = []

  /// Reinterprets a closure isolated to this actor and calls it from here, as a drain does.
  ///
  /// - Returns: Whether the isolation read back is this actor, before and after the round trip
  ///   through the plain type, and what the call recorded.
  func reinterpretAndCall(_ value: Int) -> (before: Bool, after: Bool, values: [Int]) {
    let handler: @isolated(any) (Int) -> Void = { value in self.values.append(value) }
    let plain = unsafeBitCast(
      IsolatedHandler.Isolated(function: handler), to: IsolatedHandler.Plain<Int>.self)
    let back = unsafeBitCast(plain, to: IsolatedHandler.Isolated<Int>.self).function
    let call: (Int) -> Void = IsolatedHandler.callable(handler)
    call(value)
    return (handler.isolation === self, back.isolation === self, values)
  }
}

/// Reinterprets `handler` and calls it on the actor it is isolated to.
@ReinterpretationActor
private func callOnItsActor(
  _ handler: @escaping @isolated(any) (Tally, Int) -> Void, with tally: Tally, _ value: Int
) {
  IsolatedHandler.callable(observer: handler)(tally, value)
}

/// Reinterprets `handler` and calls it on the actor it is isolated to.
@ReinterpretationActor
private func callOnItsActor(
  _ handler: @escaping @isolated(any) (String, Int) -> Void, with name: String, _ count: Int
) {
  let call: (String, Int) -> Void = IsolatedHandler.callable(handler)
  call(name, count)
}

/// Reinterprets `handler` and calls it on the actor it is isolated to.
@ReinterpretationActor
private func callOnItsActor(
  _ handler: @escaping @isolated(any) @Sendable (Int) -> Void, with value: Int
) {
  IsolatedHandler.callable(sendable: handler)(value)
}

private struct Refusal: Error, Equatable {
  let value: Int
}

/// Reinterprets throwing `handler` and calls it on the actor it is isolated to.
///
/// - Returns: The error it threw, if any.
@ReinterpretationActor
private func callOnItsActor(
  throwing handler: @escaping @isolated(any) @Sendable (Int) throws -> Void, with value: Int
) -> Refusal? {
  do {
    try IsolatedHandler.callable(throwing: handler)(value)
    return nil
  } catch {
    return error as? Refusal
  }
}

/// Reinterprets throwing `handler`, with an observer, and calls it on the actor it is isolated
/// to.
///
/// - Returns: The error it threw, if any.
@ReinterpretationActor
private func callOnItsActor(
  throwingObserver handler: @escaping @isolated(any) @Sendable (Tally, Int) throws -> Void,
  with tally: Tally, _ value: Int
) -> Refusal? {
  do {
    try IsolatedHandler.callable(throwingObserver: handler)(tally, value)
    return nil
  } catch {
    return error as? Refusal
  }
}

/// The assumptions `IsolatedHandler` rests on, checked on the toolchain that builds the tests:
/// if a new Swift changes the representation of `@isolated(any)` functions, these fail loudly
/// instead of the package calling handlers through a wrong layout.
@Suite("IsolatedHandler reinterpretation")
struct IsolatedHandlerTests {
  @Test("an @isolated(any) function has the layout of the plain function type")
  func layouts() {
    typealias Isolated = @isolated(any) (Int) -> Void
    typealias Plain = (Int) -> Void
    typealias IsolatedSendable = @isolated(any) @Sendable (Int) -> Void
    typealias PlainSendable = @Sendable (Int) -> Void
    typealias IsolatedPair = @isolated(any) (AnyObject, Int) -> Void
    typealias PlainPair = (AnyObject, Int) -> Void
    #expect(MemoryLayout<Isolated>.size == MemoryLayout<Plain>.size)
    #expect(MemoryLayout<Isolated>.alignment == MemoryLayout<Plain>.alignment)
    #expect(MemoryLayout<IsolatedSendable>.size == MemoryLayout<PlainSendable>.size)
    #expect(MemoryLayout<IsolatedPair>.size == MemoryLayout<PlainPair>.size)
    #expect(
      MemoryLayout<IsolatedHandler.Isolated<Int, String>>.size
        == MemoryLayout<IsolatedHandler.Plain<Int, String>>.size)
    #expect(
      MemoryLayout<IsolatedHandler.IsolatedClosure<Int>>.size
        == MemoryLayout<IsolatedHandler.PlainClosure<Int>>.size)
    #expect(
      MemoryLayout<IsolatedHandler.IsolatedObserverHandler<AnyObject, Int>>.size
        == MemoryLayout<IsolatedHandler.PlainObserverHandler<AnyObject, Int>>.size)
    #expect(
      MemoryLayout<IsolatedHandler.IsolatedThrowingClosure<Int>>.size
        == MemoryLayout<IsolatedHandler.PlainThrowingClosure<Int>>.size)
    #expect(
      MemoryLayout<IsolatedHandler.IsolatedThrowingObserverHandler<AnyObject, Int>>.size
        == MemoryLayout<IsolatedHandler.PlainThrowingObserverHandler<AnyObject, Int>>.size)
  }

  @Test("a reinterpreted throwing handler runs on its actor, and what it throws comes back")
  func throwingInsideItsActor() async {
    let ran = Recorder<Int>()
    let thrown = await callOnItsActor(
      throwing: { @ReinterpretationActor value in
        ReinterpretationActor.shared.assertIsolated()
        ran.record(value)
        throw Refusal(value: value)
      }, with: 3)
    #expect(thrown == Refusal(value: 3))
    #expect(ran.values == [3])
    #expect(await callOnItsActor(throwing: { @ReinterpretationActor _ in }, with: 4) == nil)

    let observed = await callOnItsActor(
      throwingObserver: { @ReinterpretationActor (_: Tally, value: Int) in
        ReinterpretationActor.shared.assertIsolated()
        throw Refusal(value: value)
      }, with: Tally(), 5)
    #expect(observed == Refusal(value: 5))
  }

  // The round trips reinterpret the structs that the package reinterprets, not the function
  // values taken out of them: taking one out at concrete types wraps it in a reabstraction
  // thunk, which calls through fine but whose context is the thunk's, so its isolation is not
  // there to read. That is why every entry keeps the isolation beside its handler.
  @Test("the isolation reads back the same after the round trip through the plain type")
  func isolationRoundTrip() async {
    let global: @isolated(any) @Sendable (Int) -> Void = { @ReinterpretationActor _ in }
    let plain = unsafeBitCast(
      IsolatedHandler.IsolatedClosure(body: global), to: IsolatedHandler.PlainClosure<Int>.self)
    let back = unsafeBitCast(plain, to: IsolatedHandler.IsolatedClosure<Int>.self).body
    #expect(back.isolation === ReinterpretationActor.shared)

    let nonisolated: @isolated(any) @Sendable (Int) -> Void = { @Sendable _ in }
    let plainNonisolated = unsafeBitCast(
      IsolatedHandler.IsolatedClosure(body: nonisolated),
      to: IsolatedHandler.PlainClosure<Int>.self)
    let nonisolatedBack = unsafeBitCast(
      plainNonisolated, to: IsolatedHandler.IsolatedClosure<Int>.self
    ).body
    #expect(nonisolatedBack.isolation == nil)

    let instance = await Tally().reinterpretAndCall(1)
    #expect(instance.before)
    #expect(instance.after)
  }

  @Test("a reinterpreted handler called from inside its actor runs its body there")
  func callInsideItsActor() async {
    let tally = Tally()
    #expect(await tally.reinterpretAndCall(7).values == [7])

    let ran = Recorder<Bool>()
    await callOnItsActor(
      { @ReinterpretationActor value in
        ReinterpretationActor.shared.assertIsolated()
        ran.record(value == 8)
      }, with: 8)
    #expect(ran.values == [true])

    let pairs = Recorder<Int>()
    await callOnItsActor(
      { @ReinterpretationActor (_: Tally, value: Int) in
        ReinterpretationActor.shared.assertIsolated()
        pairs.record(value)
      }, with: tally, 9)
    #expect(pairs.values == [9])

    let packs = Recorder<String>()
    await callOnItsActor(
      { @ReinterpretationActor (name: String, count: Int) in
        ReinterpretationActor.shared.assertIsolated()
        packs.record("\(name)\(count)")
      }, with: "a", 1)
    #expect(packs.values == ["a1"])
  }

  #if DEBUG
    @Test("a debug build stops a handler isolated to the main actor about to run off it")
    func debugCheckMainActor() async {
      await #expect(processExitsWith: .failure) {
        let entry = ObserverEntry<Int>(delivery: .synchronous, isolation: MainActor.shared) { _ in
        }
        _ = entry.call(1)
      }
    }

    @Test("a debug build stops a handler isolated to an actor about to run off it")
    func debugCheckActor() async {
      await #expect(processExitsWith: .failure) {
        let entry = ObserverEntry<Int>(
          delivery: .synchronous, isolation: ReinterpretationActor.shared
        ) { _ in }
        _ = entry.call(1)
      }
    }
  #endif

  #if canImport(Darwin)
    @MainActor
    @Test("code on the main thread inside a serial queue's sync counts as the main actor")
    func mainThreadInsideSync() {
      let serial = DispatchQueue(label: "IsolatedHandlerTests.sync")
      let inside = serial.sync { MainActorDetection.isOnMainActor }
      #expect(inside)
    }
  #endif
}
