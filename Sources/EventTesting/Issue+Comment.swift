import Testing

/// Records an issue at `sourceLocation` saying `text`, followed by the caller's comment.
func recordIssue(_ text: String, _ comment: Comment?, at sourceLocation: SourceLocation) {
  let message = comment.map { "\(text): \($0.rawValue)" } ?? text
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}
