/// The types whose every value is a class instance's strong reference in its first word, told
/// from their type metadata rather than by boxing a value as `Any` and casting it (the runtime's
/// `tryCast`, which costs hundreds of instructions per call).
///
/// Why reading the metadata is sound (Swift's ABI, stable since Swift 5 on Apple platforms:
/// `docs/ABI/TypeMetadata.rst`, `include/swift/ABI/Metadata.h` and `MetadataValues.h`):
/// - A metatype `T.Type` is a pointer to `T`'s type metadata, whose first word is its kind.
/// - A Swift class's kind word is 0, or the class's `isa` pointer where Objective-C interop is
///   on: every value above the last enumerated kind (0x7FF) is one. A value of a class type is
///   one strong reference.
/// - Kind 0x303 is an existential; its `ExistentialTypeFlags` (32 bits) follow the kind word.
///   Their bit 0x8000_0000 is clear exactly when the existential is class-bound (`AnyObject`,
///   a protocol constrained to `AnyObject` or to a superclass, a composition with either),
///   whose representation is the instance's reference followed by its witness tables.
/// - Anything else (a value type, an opaque existential, `any Error`, an Objective-C or
///   foreign class's wrapper metadata) is answered `false`, and the caller casts.
///
/// `ClassReferenceTests` checks every such kind of type against the casts.
@usableFromInline enum ClassReference {
  /// Whether every value of `type` holds a class instance's strong reference in its first word.
  @inlinable static func leads(_ type: any Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let kind = metadata.load(as: UInt.self)
    if kind == 0 || kind > 0x7FF { return true }
    guard kind == 0x303 else { return false }
    let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
    return flags & 0x8000_0000 == 0
  }

  /// The instance that the value at `value`, of a type that ``leads(_:)``, refers to.
  /// Unretained: the value keeps it alive.
  @inlinable static func object(at value: UnsafeRawPointer) -> Unmanaged<AnyObject> {
    Unmanaged.fromOpaque(value.load(as: UnsafeRawPointer.self))
  }
}
