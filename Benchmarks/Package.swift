// swift-tools-version: 6.2

import PackageDescription

// A separate package so that the benchmark and its malloc-counting C target never reach the
// dependency graph of the Events package's users.
let package = Package(
  name: "EventsBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Events", path: "..")
  ],
  targets: [
    .target(name: "MallocCounter"),
    .executableTarget(
      name: "events-benchmark",
      dependencies: [
        "MallocCounter",
        .product(name: "Events", package: "Events"),
      ],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
      ]
    ),
  ]
)
