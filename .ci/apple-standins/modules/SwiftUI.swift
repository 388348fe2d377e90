// Stand-in for SwiftUI, which re-exports Combine: that re-export is what makes `Subscription`
// ambiguous in a SwiftUI file. Only type-checked against.

@_exported public import Combine
