/// Where a registration was written, and what kind of registration it is: what
/// `String(reflecting:)` lists for an event or a broadcaster.
///
/// Made at registration from the call's defaulted `#fileID` and `#line` arguments and
/// metatypes, all stored inline: recording it allocates nothing, and a post never reads it.
/// The names it shows are formatted only when a description is asked for.
@usableFromInline package struct RegistrationSite: Sendable {
  /// What was registered.
  @usableFromInline package enum Kind: Sendable {
    /// A closure held by its token (`subscribe`).
    case closure
    /// An object held weakly, of this type, with a method or a closure.
    case observer(any Any.Type)
    /// A type-level function of this type.
    case type(any Any.Type)
    /// A closure for the next post only (`subscribeOnce`).
    case once
    /// An async closure, run on this actor's type (`nil`: off any actor).
    case async(isolation: (any Any.Type)?)
    /// An actor of this type, held weakly.
    case actor(any Any.Type)
    /// A registration the package makes for you: a `values` stream, a wait, a recorder.
    case stream
  }

  @usableFromInline package var kind: Kind
  /// The `#fileID` of the registering call, or empty when the package made the registration.
  @usableFromInline package var fileID: StaticString
  /// The `#line` of the registering call, or 0 when the package made the registration.
  @usableFromInline package var line: UInt

  @inlinable
  package init(_ kind: Kind, fileID: StaticString, line: UInt) {
    self.kind = kind
    self.fileID = fileID
    self.line = line
  }

  /// A registration the package made itself, with no call site of the user's.
  @inlinable package static var madeByThePackage: RegistrationSite {
    RegistrationSite(.stream, fileID: "", line: 0)
  }

  /// `Module/File.swift:line`, or `nil` when the package made the registration.
  package var location: String? {
    line == 0 ? nil : "\(fileID):\(line)"
  }

  /// The kind in words: `closure`, `observer Screen`, `type Analytics`, `once`, `async`,
  /// `actor Store`, `stream`.
  package var kindDescription: String {
    switch kind {
    case .closure: "closure"
    case .observer(let type): "observer \(type)"
    case .type(let type): "type \(type)"
    case .once: "once"
    case .async: "async"
    case .actor(let type): "actor \(type)"
    case .stream: "stream"
    }
  }
}
