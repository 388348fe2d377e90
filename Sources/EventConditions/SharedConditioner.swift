/// A conditioner whose count lives in a ``SharedConditioners`` registry, so several receivers
/// can wait on one event.
///
/// Get one from ``SharedConditioners/conditioner(_:minCount:)`` and add it to each receiver
/// with ``NotificationReceiver/add(_:ignorable:)-(SharedConditioner,_)``. One arrival, reported
/// with ``SharedConditioners/arrive(_:)``, advances every holder once, and a holder's re-arm
/// does not reset it: only ``SharedConditioners/reset(_:)`` does.
///
/// Two shared conditioners are equal when they have the same name and minimum count and come
/// from the same registry; conditioners from different registries are never equal.
///
/// ### Threading
/// A value type; safe to create and pass anywhere.
public struct SharedConditioner: Sendable, Hashable {
  /// The name whose arrivals the registry counts.
  public let name: String

  /// How many arrivals of ``name`` the registry needs before holders count it met.
  public let minCount: Int

  /// The registry that counts ``name``.
  let registry: SharedConditioners

  init(name: String, minCount: Int, registry: SharedConditioners) {
    self.name = name
    self.minCount = minCount
    self.registry = registry
  }

  /// Whether both are the same conditioner of the same registry.
  public static func == (lhs: SharedConditioner, rhs: SharedConditioner) -> Bool {
    lhs.name == rhs.name && lhs.minCount == rhs.minCount && lhs.registry === rhs.registry
  }

  /// Hashes the name, the minimum count and the registry's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(minCount)
    hasher.combine(registry.id)
  }
}
