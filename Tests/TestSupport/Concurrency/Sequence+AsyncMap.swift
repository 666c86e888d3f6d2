extension Sequence {
  /// The results of `transform` over the elements, in order, one at a time: `map` for a
  /// transform that awaits (a child process, a fixture).
  ///
  /// ```swift
  /// let statuses = try await (0..<3).asyncMap { _ in try await Curl.fetch(url).status }
  /// ```
  public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
    var results: [T] = []
    for element in self { results.append(try await transform(element)) }
    return results
  }
}
