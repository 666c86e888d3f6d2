/// Reads `Link` field values (RFC 8288 §3) into targets with their parameters.
///
/// ```
/// Link = #link-value
/// link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
/// link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
/// ```
///
/// A link-value that breaks the grammar is skipped up to the next comma outside quotes and
/// angle brackets; the others are kept. Commas inside a quoted string or a target do not
/// split links.
enum LinkFieldParser {
  /// One link-value: its target as written and its parameters, names in lowercase, in order;
  /// a parameter without `=` has a nil value.
  struct Link: Equatable {
    /// The URI reference between `<` and `>`.
    var target: String
    /// The parameters, in order.
    var parameters: [(name: String, value: String?)]

    /// The value of the first parameter named `name` (RFC 8288 §3: later ones are ignored);
    /// `.some(nil)` when it is present without a value, nil when absent.
    func parameter(_ name: String) -> String?? {
      guard let found = parameters.first(where: { $0.name == name }) else { return nil }
      return .some(found.value)
    }

    static func == (lhs: Link, rhs: Link) -> Bool {
      lhs.target == rhs.target && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }
  }

  /// The links of one field value (or of several joined with commas).
  static func links(in value: String) -> [Link] {
    var reader = Reader(bytes: Array(value.utf8))
    var result: [Link] = []
    while true {
      reader.skip { $0 == UInt8(ascii: ",") || isBlank($0) }
      guard !reader.isAtEnd else { break }
      let start = reader.index
      if let link = reader.link() {
        result.append(link)
      } else if reader.index > start, reader.skipBlanksToTarget() {
        continue  // an unclosed target stopped before the next link
      } else {
        reader.skipToNextLink()
      }
    }
    return result
  }

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  /// RFC 9110 §5.6.2 tchar.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// A cursor over a field value's bytes.
  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { isAtEnd ? nil : bytes[index] }

    mutating func skip(while predicate: (UInt8) -> Bool) {
      while let byte = current, predicate(byte) { index += 1 }
    }

    /// One link-value, the cursor after it; nil when it breaks the grammar.
    mutating func link() -> Link? {
      guard current == UInt8(ascii: "<") else { return nil }
      index += 1
      let start = index
      // A URI reference has no blank, quote or angle bracket (RFC 3986 §2); stopping at one
      // lets a link after an unclosed `<` still be read.
      skip { !Array(" \t\"<>".utf8).contains($0) }
      guard current == UInt8(ascii: ">") else { return nil }
      let target = String(decoding: bytes[start..<index], as: UTF8.self)
      index += 1
      var parameters: [(name: String, value: String?)] = []
      while true {
        skip(while: LinkFieldParser.isBlank)
        guard let byte = current, byte != UInt8(ascii: ",") else { break }
        guard byte == UInt8(ascii: ";") else { return nil }
        index += 1
        skip(while: LinkFieldParser.isBlank)
        guard let parameter = parameter() else { return nil }
        parameters.append(parameter)
      }
      return Link(target: target, parameters: parameters)
    }

    /// `name [= value]`, the cursor after it.
    private mutating func parameter() -> (name: String, value: String?)? {
      let start = index
      skip(while: LinkFieldParser.isTokenCharacter)
      guard index > start else { return nil }
      let name = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
      skip(while: LinkFieldParser.isBlank)
      guard current == UInt8(ascii: "=") else { return (name, nil) }
      index += 1
      skip(while: LinkFieldParser.isBlank)
      if current == UInt8(ascii: "\"") {
        guard let value = quotedString() else { return nil }
        return (name, value)
      }
      let valueStart = index
      skip(while: LinkFieldParser.isTokenCharacter)
      guard index > valueStart else { return nil }
      return (name, String(decoding: bytes[valueStart..<index], as: UTF8.self))
    }

    /// A quoted-string's content with its escapes undone (RFC 9110 §5.6.4).
    private mutating func quotedString() -> String? {
      index += 1
      var value: [UInt8] = []
      while let byte = current {
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return String(decoding: value, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard let escaped = current else { return nil }
          value.append(escaped)
          index += 1
        default: value.append(byte)
        }
      }
      return nil
    }

    /// Moves past blanks; whether a `<` follows.
    mutating func skipBlanksToTarget() -> Bool {
      skip(while: LinkFieldParser.isBlank)
      return current == UInt8(ascii: "<")
    }

    /// Moves past the next comma outside a quoted string or angle brackets.
    mutating func skipToNextLink() {
      var inQuotes = false
      var inTarget = false
      while let byte = current {
        index += 1
        if inQuotes {
          if byte == UInt8(ascii: "\\") {
            index += 1
          } else if byte == UInt8(ascii: "\"") {
            inQuotes = false
          }
        } else if inTarget {
          if byte == UInt8(ascii: ">") { inTarget = false }
        } else if byte == UInt8(ascii: "\"") {
          inQuotes = true
        } else if byte == UInt8(ascii: "<") {
          inTarget = true
        } else if byte == UInt8(ascii: ",") {
          return
        }
      }
    }
  }
}
