/// Builds an attribute list (RFC 8216 §4.2) one attribute at a time.
struct AttributeWriter {
  private(set) var text = ""

  private mutating func append(_ name: String, _ value: String) {
    if !text.isEmpty { text += "," }
    text += name + "=" + value
  }

  /// An enumerated string, number or resolution, written as it is.
  mutating func plain(_ name: String, _ value: String?) {
    if let value { append(name, value) }
  }

  /// A decimal-integer.
  mutating func plain(_ name: String, _ value: Int?) {
    if let value { append(name, String(value)) }
  }

  /// A quoted string, written between double quotes.
  mutating func quoted(_ name: String, _ value: String?) {
    if let value { append(name, "\"" + value + "\"") }
  }

  /// Attributes kept from parsing, written with their raw values.
  mutating func others(_ attributes: [Attribute]) {
    for attribute in attributes { append(attribute.name, attribute.value) }
  }
}
