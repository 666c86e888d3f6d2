import XMLTree

/// An element with the path that leads to it, for reading attributes with errors that say
/// where.
struct Located {
  /// The element.
  let node: XMLNode
  /// Its path, such as `MPD/Period[1]`.
  let path: String

  /// The children named `name`, each with its path (`path/name[i]`, 1-based).
  func children(_ name: String) -> [Located] {
    node.children(name).enumerated().map { index, child in
      Located(node: child, path: "\(path)/\(name)[\(index + 1)]")
    }
  }

  /// The only child named `name`, or nil; a second one is an error.
  func child(_ name: String) throws -> Located? {
    let all = children(name)
    guard all.count <= 1 else {
      throw MPDError(.malformedValue, at: path, "There is more than one \(name) element.")
    }
    return all.first
  }

  /// The raw value of attribute `name`.
  func string(_ name: String) -> String? { node.attributes[name] }

  /// The value of a required attribute.
  func required(_ name: String) throws -> String {
    guard let value = node.attributes[name] else {
      throw MPDError(.missingAttribute, at: path, "\(name) is missing.")
    }
    return value
  }

  /// An attribute read by `convert`; a value it refuses is an error naming `what` it should be.
  func value<T>(_ name: String, _ what: String, _ convert: (String) -> T?) throws -> T? {
    guard let text = node.attributes[name] else { return nil }
    guard let value = convert(text.trimmingASCIIWhitespace()) else {
      throw MPDError(.malformedValue, at: path, "\(name) '\(text)' is not \(what).")
    }
    return value
  }

  /// An unsigned integer attribute.
  func unsigned(_ name: String) throws -> UInt64? {
    try value(name, "a whole number") { text in
      text.allSatisfy(\.isASCIIDigit) ? UInt64(text) : nil
    }
  }

  /// A non-negative integer attribute that fits an `Int`.
  func int(_ name: String) throws -> Int? {
    try value(name, "a whole number") { text in
      text.allSatisfy(\.isASCIIDigit) ? Int(text) : nil
    }
  }

  /// An `xs:duration` attribute, in seconds.
  func duration(_ name: String) throws -> Double? {
    try value(name, "an ISO 8601 duration such as PT1H2M3.5S", ISODuration.seconds)
  }

  /// A `first-last` byte range attribute.
  func byteRange(_ name: String) throws -> ByteRange? {
    try value(name, "a byte range such as 0-863", ByteRange.init)
  }

  /// The element's text, whitespace trimmed; nil when empty.
  var trimmedText: String? {
    let text = node.text.trimmingASCIIWhitespace()
    return text.isEmpty ? nil : text
  }
}
