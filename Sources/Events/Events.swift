@_exported public import EventBroadcast
@_exported public import EventConditions
@_exported public import EventCore
@_exported public import EventRAII
@_exported public import EventTyped
