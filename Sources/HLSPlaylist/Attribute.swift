/// One attribute of an attribute list (RFC 8216 §4.2) that the parser does not model, kept so
/// the writer can put it back unchanged.
public struct Attribute: Sendable, Equatable, Hashable {
  /// The attribute name, such as `HDCP-LEVEL`.
  public var name: String
  /// The raw value as written, quotes included for a quoted string (`"hvc1.2.4.L123.B0"`).
  public var value: String

  /// Creates an attribute from its name and raw value (quotes included when quoted).
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
