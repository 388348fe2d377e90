// swift-tools-version: 6.2

import PackageDescription

let package = Package(
  name: "Events",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Events", targets: ["Events"]),
    .library(name: "EventCore", targets: ["EventCore"]),
    .library(name: "EventRAII", targets: ["EventRAII"]),
    .library(name: "EventBroadcast", targets: ["EventBroadcast"]),
    .library(name: "EventTyped", targets: ["EventTyped"]),
    .library(name: "EventConditions", targets: ["EventConditions"]),
    // For users' test targets; links the toolchain's `Testing`, so `Events` does not re-export it.
    .library(name: "EventTesting", targets: ["EventTesting"]),
    .executable(name: "events-demo", targets: ["events-demo"]),
  ],
  targets: [
    // The runtime calls of `UnownedReference`, which Swift may not name itself.
    .target(name: "CEventCore"),
    .target(name: "EventCore", dependencies: ["CEventCore"]),
    .target(name: "EventRAII", dependencies: ["EventCore"]),
    .target(name: "EventBroadcast", dependencies: ["EventCore"]),
    .target(name: "EventTyped", dependencies: ["EventCore"]),
    .target(name: "EventConditions", dependencies: ["EventCore", "EventTyped"]),
    .target(
      name: "Events",
      dependencies: [
        "EventCore", "EventRAII", "EventBroadcast", "EventTyped", "EventConditions",
      ]
    ),
    .target(name: "EventTesting", dependencies: ["EventCore", "EventRAII", "EventTyped"]),
    .executableTarget(name: "events-demo", dependencies: ["Events"]),
    // The C allocator's statistics, for memory tests: Swift's Glibc module lacks <malloc.h>.
    .target(name: "HeapStatistics", path: "Tests/HeapStatistics"),
    .target(
      name: "EventTestSupport", dependencies: ["EventCore", "HeapStatistics"],
      path: "Tests/EventTestSupport"),
    .testTarget(name: "EventCoreTests", dependencies: ["EventCore", "EventTestSupport"]),
    .testTarget(name: "EventRAIITests", dependencies: ["EventRAII", "EventTestSupport"]),
    .testTarget(name: "EventBroadcastTests", dependencies: ["EventBroadcast", "EventTestSupport"]),
    .testTarget(
      name: "EventTypedTests", dependencies: ["EventTyped", "EventTesting", "EventTestSupport"]
    ),
    .testTarget(
      name: "EventConditionsTests",
      dependencies: ["EventConditions", "EventTyped", "EventTestSupport"]
    ),
    .testTarget(
      name: "EventTestingTests",
      dependencies: ["EventTesting", "EventTyped", "EventRAII", "EventTestSupport"]
    ),
    // A test target as Xcode creates it for an app (SE-0466): EventTesting from main-actor code.
    .testTarget(
      name: "EventTestingMainActorTests", dependencies: ["EventTesting", "EventTyped"],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    .testTarget(
      name: "EventsSwift5ClientTests", dependencies: ["Events", "EventTestSupport"],
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    // An app target as Xcode creates it (SE-0466): every registration form from app code.
    .testTarget(
      name: "EventsMainActorClientTests", dependencies: ["Events", "EventTestSupport"],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    .testTarget(
      name: "EventsDemoTests",
      dependencies: ["events-demo", "Events", "EventTesting", "EventTestSupport"]
    ),
  ]
)

for target in package.targets where !["HeapStatistics", "CEventCore"].contains(target.name) {
  var settings = target.swiftSettings ?? []
  // SE-0335: `any` spelled out for existential types. Not in the Swift 5 client target, which
  // compiles call sites as a client without the feature writes them (`Update.self`).
  if target.name != "EventsSwift5ClientTests" {
    settings.append(.enableUpcomingFeature("ExistentialAny"))
  }
  // SE-0444: a file sees members only of the modules it imports itself.
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  // SE-0409: imports are internal unless marked `public`, so no dependency leaks by accident.
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
