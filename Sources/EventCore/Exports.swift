// `Delivery.queue(_:)` takes a `DispatchQueue`; re-exporting Dispatch lets a client that imports
// only an Events module name one.
@_exported public import Dispatch
