/// An entity tag from an `ETag` header (RFC 9110, section 8.8.3).
public struct EntityTag: Sendable, Equatable {
  /// The tag as sent, quotes included, for example `"abc"` or `W/"abc"`.
  public var rawValue: String
  /// Whether the tag is weak (`W/` prefix). Weak tags cannot validate a range request.
  public var isWeak: Bool

  /// Parses a header value; nil when it is not a quoted entity tag.
  public init?(_ value: String) {
    let text = Substring(value).trimmingSpaces()
    let weak = text.hasPrefix("W/")
    let quoted = weak ? text.dropFirst(2) : text
    guard quoted.count >= 2, quoted.first == "\"", quoted.last == "\"",
      !quoted.dropFirst().dropLast().contains("\"")
    else { return nil }
    self.rawValue = String(text)
    self.isWeak = weak
  }
}
