// expect: compiles
//
// 24: every throwing form, from nonisolated code, a `@MainActor` screen and an actor, with
// the non-throwing forms beside them: no call is ambiguous.
import Events

struct Refused: Error {}

func check(_ value: Int) throws {
  if value < 0 { throw Refused() }
}

final class Service: Sendable {
  func handle(_ value: Int) throws { try check(value) }
}

func wire(_ event: Event<Int>, service: Service) -> [Subscription] {
  [
    event.subscribe { try check($0) },
    event.subscribe { value in print(value) },
    event.subscribe { value async throws in try check(value) },
    event.subscribe { value async in print(value) },
    event.register(service) { service, value in try service.handle(value) },
    event.register(service) { _, value in print(value) },
    event.errors.subscribe { failure in print(failure.fileID, failure.line, failure.error) },
  ]
}

@MainActor final class Screen {
  var shown: [Int] = []
  var tokens = Set<Subscription>()

  func show(_ value: Int) throws {
    try check(value)
    shown.append(value)
  }

  func start(_ event: Event<Int>) {
    event.subscribe { value in try self.show(value) }.store(in: &tokens)
    event.subscribe { @MainActor value async throws in try self.show(value) }
      .store(in: &tokens)
    event.register(self) { screen, value in try screen.show(value) }
  }
}

actor Archive {
  var stored: [Int] = []

  func store(_ value: Int) throws {
    try check(value)
    stored.append(value)
  }

  func start(_ event: Event<Int>) {
    event.register(self) { archive, value in try archive.store(value) }
  }
}
