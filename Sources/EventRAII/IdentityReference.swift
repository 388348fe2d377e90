import EventCore

/// A reference that does not keep its object alive, and tells whether an object the caller
/// holds is that one: never a later object at the same address.
///
/// Swift objects (Linux): an `UnownedObject`, not a weak reference, which would give the object
/// a side table and send every retain and release of it down the runtime's slow path, its
/// owner's retains included (a sender's, in Foundation's own `post`). It keeps the object's
/// memory allocated while the reference lives, so no other object can be at its address
/// meanwhile: a live object at that address is this one, and the check is an identity
/// comparison. A dead object's memory (its instance size; what its properties held is released
/// at its `deinit`) stays allocated until the reference goes, as a weak reference keeps the
/// side table. Objective-C objects have no unowned count to raise, so on Apple platforms it is
/// a weak reference. `ChannelRegistryTests` and `SenderFilterTests` check that a dropped
/// object is deinitialized and that its address is not reused.
struct IdentityReference<Object: AnyObject>: ~Copyable, Sendable {
  #if canImport(ObjectiveC)
    private let reference: WeakBox
  #else
    private let reference: UnownedObject<Object>
  #endif
  /// The object's identity, taken when the reference was made.
  let identifier: ObjectIdentifier

  init(_ object: Object) {
    #if canImport(ObjectiveC)
      reference = WeakBox(object)
    #else
      reference = UnownedObject(object)
    #endif
    identifier = ObjectIdentifier(object)
  }

  /// Whether `object`, which the caller holds, is the referenced one. Safe under a lock: on
  /// Apple platforms the weak load yields `nil` (the object died; `object` merely reuses its
  /// address) or `object` itself, whose release cannot be the last one, so no `deinit` runs.
  func refers(to object: Object) -> Bool {
    #if canImport(ObjectiveC)
      reference.object === object
    #else
      ObjectIdentifier(object) == identifier
    #endif
  }

  /// The object, strongly, while it lives.
  var object: Object? {
    #if canImport(ObjectiveC)
      reference.object.map { $0 as! Object }
    #else
      reference.object
    #endif
  }
}
