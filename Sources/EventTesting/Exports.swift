@_exported public import EventCore
