extension AsyncSequence where Failure == Never {
  /// Every element, in order, once the sequence finishes.
  func collect() async -> [Element] {
    var elements: [Element] = []
    for await element in self { elements.append(element) }
    return elements
  }
}
