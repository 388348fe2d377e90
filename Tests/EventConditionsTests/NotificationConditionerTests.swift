import EventConditions
import Testing

@Suite("NotificationConditioner")
struct NotificationConditionerTests {
  @Test("a conditioner keeps its name and minimum count, 1 by default")
  func values() {
    #expect(NotificationConditioner("profile").minCount == 1)
    let messages = NotificationConditioner("messages", minCount: 3)
    #expect(messages.name == "messages")
    #expect(messages.minCount == 3)
  }

  @Test("conditioners are equal when name and minimum count are")
  func equality() {
    #expect(NotificationConditioner("a") == NotificationConditioner("a", minCount: 1))
    #expect(NotificationConditioner("a") != NotificationConditioner("a", minCount: 2))
    #expect(NotificationConditioner("a") != NotificationConditioner("b"))
    #expect(Set([NotificationConditioner("a"), NotificationConditioner("a")]).count == 1)
  }

  @Test("a minimum count of zero stops the program with a message naming it")
  func zeroMinCount() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = NotificationConditioner("a", minCount: 0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "NotificationConditioner(\"a\", minCount: 0): minCount must be at least 1"))
  }

  @Test("a negative minimum count stops the program with a message naming it")
  func negativeMinCount() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = NotificationConditioner("a", minCount: -1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "NotificationConditioner(\"a\", minCount: -1): minCount must be at least 1"))
  }
}
