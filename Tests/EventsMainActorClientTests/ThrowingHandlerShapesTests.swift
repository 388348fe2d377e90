import EventCore
import EventTestSupport
import Events
import Testing

// Built with `.defaultIsolation(MainActor.self)`: the throwing forms, written as app code
// writes them, pick the throwing overloads without ambiguity and keep running on the main
// actor; the non-throwing closures beside them keep their own forms.

struct SaveFailed: Error {}

/// An actor whose throwing method the actor form calls.
actor Journal {
  private(set) var entries: [String] = []

  func write(_ entry: String) throws {
    if entry == "fail" { throw SaveFailed() }
    entries.append(entry)
  }
}

@Suite("Throwing handlers in an app target with default MainActor isolation", .serialized)
struct ThrowingHandlerShapesTests {
  @Test("throwing closures of every form run on the main actor and their errors reach errors")
  func throwingForms() async {
    let event = Event<String>()
    let screen = Screen()
    let journal = Journal()
    let failures = Recorder<Bool>()
    event.errors.subscribe { failure in
      failures.record(MainActorDetection.isOnMainActor && failure.error is SaveFailed)
    }
    .store(in: &screen.tokens)
    func save(_ text: String) throws {
      screen.record("saved \(text)")
      if text == "fail" { throw SaveFailed() }
    }
    event.subscribe { text in try save(text) }.store(in: &screen.tokens)
    event.register(screen) { screen, text in
      screen.record("handler \(text)")
      if text == "fail" { throw SaveFailed() }
    }
    event.subscribe { text async throws in try save("async \(text)") }
      .store(in: &screen.tokens)
    event.register(journal) { journal, text in try journal.write(text) }
    event.subscribe { text in screen.record("plain \(text)") }.store(in: &screen.tokens)

    #expect(onOtherThread { event.post("fail") })
    #expect(onOtherThread { event.post("ok") })
    await event.flush()
    await event.errors.flush()

    #expect(
      screen.log.filter { $0.hasSuffix("ok") }.sorted() == [
        "handler ok", "plain ok", "saved async ok", "saved ok",
      ])
    #expect(screen.log.contains("plain fail"))
    #expect(screen.offMainActor == 0)
    #expect(await journal.entries == ["ok"])
    #expect(failures.count == 3)
    #expect(failures.values.allSatisfy { $0 })
  }
}
