import Events
import Foundation

extension Notification.Name {
  /// Posted by a `Sensor` with the new reading in `userInfo["celsius"]`.
  static let temperatureDidChange = Notification.Name("TemperatureDidChange")
}

/// `raii`: EventRAII's observations end when their token or their owner goes away, through a
/// real `NotificationCenter`, with no `removeObserver` anywhere.
enum RAIIDemo {
  @MainActor
  static func run() async -> Bool {
    let report = DemoReport(
      name: "raii", title: "observers that end with their token or their owner (EventRAII)",
      scenarios: 4)
    let center = NotificationCenter()
    await report.scenario("a token keeps a handler; releasing the token ends it") {
      tokenHeld(center: center, report: report)
    }
    await report.scenario("an owner-bound handler stops when its owner is released") {
      ownerBound(center: center, report: report)
    }
    await report.scenario("target-action with a sender filter; the target is held weakly") {
      targetAction(center: center, report: report)
    }
    await report.scenario("deliveries on the posting queue, a display queue and the main actor") {
      await deliveries(center: center, report: report)
    }
    return report.finish()
  }

  @MainActor
  private static func tokenHeld(center: NotificationCenter, report: DemoReport) {
    let sensor = Sensor("hall", center: center)
    let log = TemperatureLog()
    log.start(center: center)
    sensor.report(21.0)
    sensor.report(21.5)
    log.stop()
    DemoLog.event("temperature log released its token")
    sensor.report(22.0)
    report.check(
      log.readings.all == [21.0, 21.5],
      "the handler ran for 21.0 and 21.5, not for 22.0 after the token was released")
  }

  @MainActor
  private static func ownerBound(center: NotificationCenter, report: DemoReport) {
    let sensor = Sensor("hall", center: center)
    let updates = Arrivals<String>()
    let kitchen = TemperatureLabel("kitchen", center: center, updates: updates)
    var bedroom: TemperatureLabel? = TemperatureLabel("bedroom", center: center, updates: updates)
    weak var releasedBedroom: TemperatureLabel?
    releasedBedroom = bedroom
    sensor.report(19.5)
    bedroom = nil
    DemoLog.event("bedroom label released (no deinit code, no removeObserver)")
    sensor.report(20.0)
    report.check(releasedBedroom == nil, "the bedroom label was deallocated: nothing retained it")
    report.check(
      updates.all == ["kitchen 19.5", "bedroom 19.5", "kitchen 20.0"],
      "both labels showed 19.5 in registration order; only the kitchen showed 20.0")
    withExtendedLifetime(kitchen) {}
  }

  @MainActor
  private static func targetAction(center: NotificationCenter, report: DemoReport) {
    let hall = Sensor("hall", center: center)
    let garage = Sensor("garage", center: center)
    var heater: Heater? = Heater()
    weak var releasedHeater: Heater?
    releasedHeater = heater
    let adjustments = heater!.adjustments
    let token = center.observe(
      .temperatureDidChange, object: hall, target: heater!, action: Heater.adjust)
    hall.report(17.0)
    garage.report(9.0)
    heater = nil
    DemoLog.event("heater released while its token is still held")
    hall.report(16.0)
    report.check(releasedHeater == nil, "the token did not keep the heater alive")
    report.check(
      adjustments.all == [17.0],
      "the heater adjusted for the hall's 17.0 only: not the garage's, not after its release")
    token.cancel()
  }

  @MainActor
  private static func deliveries(center: NotificationCenter, report: DemoReport) async {
    let sensorQueue = ExecutionContext.queue("raii.sensor")
    let displayQueue = ExecutionContext.queue("raii.display")
    let sensor = Sensor("roof", center: center)
    let places = Arrivals<String>()
    let bag = SubscriptionBag()
    observeOffTheMainActor(center, display: displayQueue, places: places, bag: bag)
    // Written here, on the main actor, the handler runs on the main actor whichever thread
    // posts: no `delivery: .mainActor` needed.
    center.observe(.temperatureDidChange) { note in
      DemoLog.event("main-actor handler: \(note.celsius) °C")
      places.record("mainActor on \(ExecutionContext.current)")
    }.store(in: bag)
    sensorQueue.async {
      sensor.report(30.5)
    }
    let arrived = await places.wait(for: 3)
    report.check(arrived, "all three handlers ran for a post made on raii.sensor")
    report.check(
      Set(places.all) == [
        "synchronous on raii.sensor", "queue on raii.display", "mainActor on main actor",
      ],
      "each ran where its delivery says: raii.sensor, raii.display, main actor")
    bag.cancelAll()
    DemoLog.event("bag.cancelAll() ended all three observations")
    sensor.report(31.0)
    await drain(displayQueue)
    report.check(places.count == 3, "a post after cancelAll() reached none of them")
  }

  /// Handlers written in nonisolated code run where their delivery says: on the posting thread,
  /// or on `display`.
  nonisolated private static func observeOffTheMainActor(
    _ center: NotificationCenter, display: DispatchQueue, places: Arrivals<String>,
    bag: SubscriptionBag
  ) {
    center.observe(.temperatureDidChange) { note in
      DemoLog.event("synchronous handler: \(note.celsius) °C")
      places.record("synchronous on \(ExecutionContext.current)")
    }.store(in: bag)
    center.observe(.temperatureDidChange, delivery: .queue(display)) { note in
      DemoLog.event("display handler: \(note.celsius) °C")
      places.record("queue on \(ExecutionContext.current)")
    }.store(in: bag)
  }

  /// Waits until the jobs already on `queue` have run.
  private static func drain(_ queue: DispatchQueue) async {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume() }
    }
  }
}

/// Posts temperature readings to a notification center, as the sender of each post.
private final class Sensor: Sendable {
  let name: String
  let center: NotificationCenter

  init(_ name: String, center: NotificationCenter) {
    self.name = name
    self.center = center
  }

  func report(_ celsius: Double) {
    DemoLog.event("\(name) sensor posts TemperatureDidChange \(celsius) °C")
    center.post(name: .temperatureDidChange, object: self, userInfo: ["celsius": celsius])
  }
}

extension Notification {
  /// The reading of a `TemperatureDidChange` post.
  fileprivate var celsius: Double {
    userInfo?["celsius"] as? Double ?? .nan
  }
}

/// Keeps its observation in a token: the observation lasts exactly as long as the token.
private final class TemperatureLog {
  let readings = Arrivals<Double>()
  private var token: Subscription?

  func start(center: NotificationCenter) {
    token = center.observe(.temperatureDidChange) { [readings] note in
      DemoLog.event("temperature log records \(note.celsius) °C")
      readings.record(note.celsius)
    }
  }

  func stop() {
    // Releasing the token ends the observation: no removeObserver.
    token = nil
  }
}

/// Shows the temperature for as long as it lives; it keeps no token and has no `deinit`.
@MainActor
private final class TemperatureLabel {
  let room: String
  private(set) var text = ""

  init(_ room: String, center: NotificationCenter, updates: Arrivals<String>) {
    self.room = room
    center.observe(.temperatureDidChange, owner: self) { label, note in
      label.text = "\(note.celsius) °C"
      DemoLog.event("\(label.room) label shows \(label.text)")
      updates.record("\(label.room) \(note.celsius)")
    }
  }
}

/// Reacts to one sensor through a method, registered as a target-action pair.
private final class Heater: Sendable {
  let adjustments = Arrivals<Double>()

  func adjust(_ note: Notification) {
    DemoLog.event("heater adjusts to \(note.celsius) °C")
    adjustments.record(note.celsius)
  }
}
