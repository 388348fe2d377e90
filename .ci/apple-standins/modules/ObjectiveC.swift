// Stand-in for the ObjectiveC module of Apple's SDKs: the declarations Events uses, with the
// signatures the SDK imports them with (objc/runtime.h, and the ObjectiveC overlay's
// `autoreleasepool`). Bodies do nothing: this module is only type-checked against.

/// `typedef OBJC_ENUM(uintptr_t, objc_AssociationPolicy)`, imported as a `UInt` enum.
public enum objc_AssociationPolicy: UInt, @unchecked Sendable {
  case OBJC_ASSOCIATION_ASSIGN = 0
  case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
  case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
  case OBJC_ASSOCIATION_RETAIN = 0o1401
  case OBJC_ASSOCIATION_COPY = 0o1403
}

public func objc_setAssociatedObject(
  _ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy
) {}

public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? { nil }

public func objc_removeAssociatedObjects(_ object: Any) {}

public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
  try body()
}
