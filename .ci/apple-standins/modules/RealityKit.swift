// Stand-in for RealityKit, whose `Event` protocol meets EventTyped's `Event`. Only type-checked
// against.

public protocol Event {}
