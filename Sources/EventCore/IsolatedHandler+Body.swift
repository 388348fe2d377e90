extension IsolatedHandler {
  /// A `@Sendable` body that receives one argument (`Broadcaster.notify`'s), callable without
  /// `await` where it may run: anywhere when it is nonisolated, on its actor otherwise.
  ///
  /// The same reinterpretation as ``callable(_:)``, with its proof, at the body's own argument
  /// type: reinterpreted as a whole struct, so that the closure keeps the abstraction of its
  /// stored field and no reabstraction thunk (which would allocate) sits in front of the call.
  /// The caller calls the result only where `body.isolation` says, as an entry does.
  @inlinable
  package static func callable<Argument>(
    body: @escaping @isolated(any) @Sendable (Argument) -> Void
  ) -> @Sendable (Argument) -> Void {
    unsafeBitCast(IsolatedBody(body: body), to: PlainBody<Argument>.self).body
  }

  @usableFromInline struct IsolatedBody<Argument> {
    @usableFromInline let body: @isolated(any) @Sendable (Argument) -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (Argument) -> Void) {
      self.body = body
    }
  }

  @usableFromInline struct PlainBody<Argument> {
    @usableFromInline let body: @Sendable (Argument) -> Void
  }
}
