import Foundation

/// The members of a Structured Field dictionary (RFC 9651 §4.2.2, formerly RFC 8941) whose
/// value is a byte sequence, by key; members of other types are parsed and left out.
///
/// A field that breaks the grammar is nil as a whole, as RFC 9651 §4.2 requires. Of two
/// members with the same key the last wins.
enum StructuredDictionary {
  /// The byte-sequence members of `value`, or nil when it is not a valid dictionary.
  static func byteSequences(in value: String) -> [String: [UInt8]]? {
    var reader = Reader(bytes: Array(value.utf8))
    var result: [String: [UInt8]] = [:]
    reader.skip { $0 == 0x20 }
    while !reader.isAtEnd {
      guard let key = reader.key() else { return nil }
      if reader.take(UInt8(ascii: "=")) {
        if reader.current == UInt8(ascii: "(") {
          guard reader.innerList() else { return nil }
          result[key] = nil
        } else {
          guard let item = reader.bareItem() else { return nil }
          result[key] = item
        }
      } else {
        result[key] = nil
      }
      guard reader.parameters() else { return nil }
      reader.skip { $0 == 0x20 || $0 == 0x09 }
      if reader.isAtEnd { break }
      guard reader.take(UInt8(ascii: ",")) else { return nil }
      reader.skip { $0 == 0x20 || $0 == 0x09 }
      if reader.isAtEnd { return nil }
    }
    return result
  }

  /// A cursor over a field value's bytes, with one method per grammar rule.
  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { isAtEnd ? nil : bytes[index] }

    mutating func skip(while predicate: (UInt8) -> Bool) {
      while let byte = current, predicate(byte) { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard current == byte else { return false }
      index += 1
      return true
    }

    /// `key = ( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" )`.
    mutating func key() -> String? {
      guard let first = current, isLowercase(first) || first == UInt8(ascii: "*") else {
        return nil
      }
      let start = index
      skip { isLowercase($0) || isDigit($0) || Array("_-.*".utf8).contains($0) }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `*( ";" *SP key [ "=" bare-item ] )`; false when malformed.
    mutating func parameters() -> Bool {
      while take(UInt8(ascii: ";")) {
        skip { $0 == 0x20 }
        guard key() != nil else { return false }
        if take(UInt8(ascii: "=")), bareItem() == nil { return false }
      }
      return true
    }

    /// `"(" *SP [ item *( 1*SP item ) *SP ] ")" parameters`; false when malformed.
    mutating func innerList() -> Bool {
      index += 1
      while true {
        skip { $0 == 0x20 }
        if take(UInt8(ascii: ")")) { return parameters() }
        guard bareItem() != nil, parameters() else { return false }
        guard current == 0x20 || current == UInt8(ascii: ")") else { return false }
      }
    }

    /// Any bare item; a byte sequence's bytes, an empty array for another type, nil when
    /// malformed.
    mutating func bareItem() -> [UInt8]? {
      guard let first = current else { return nil }
      switch first {
      case UInt8(ascii: ":"): return byteSequence()
      case UInt8(ascii: "\""): return string() ? [] : nil
      case UInt8(ascii: "?"):
        index += 1
        guard let value = current, value == UInt8(ascii: "0") || value == UInt8(ascii: "1")
        else { return nil }
        index += 1
        return []
      case UInt8(ascii: "@"):
        index += 1
        return number() ? [] : nil
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number() ? [] : nil
      case _ where isAlpha(first) || first == UInt8(ascii: "*"):
        skip { isTokenCharacter($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }
        return []
      default: return nil
      }
    }

    /// `":" *(base64) ":"`, padding optional (RFC 9651 §4.2.7).
    mutating func byteSequence() -> [UInt8]? {
      index += 1
      let start = index
      skip { isAlpha($0) || isDigit($0) || Array("+/=".utf8).contains($0) }
      var text = String(decoding: bytes[start..<index], as: UTF8.self)
      guard take(UInt8(ascii: ":")) else { return nil }
      while !text.utf8.count.isMultiple(of: 4) { text += "=" }
      guard let data = Data(base64Encoded: text) else { return nil }
      return [UInt8](data)
    }

    /// A string, with `\"` and `\\` escapes; false when malformed.
    mutating func string() -> Bool {
      index += 1
      while let byte = current {
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return true
        case UInt8(ascii: "\\"):
          guard current == UInt8(ascii: "\"") || current == UInt8(ascii: "\\") else {
            return false
          }
          index += 1
        case 0x20...0x7E: continue
        default: return false
        }
      }
      return false
    }

    /// An integer or decimal: `["-"] 1*15DIGIT ["." 1*3DIGIT]`; false when malformed.
    mutating func number() -> Bool {
      _ = take(UInt8(ascii: "-"))
      let start = index
      skip(while: isDigit)
      guard (1...15).contains(index - start) else { return false }
      guard take(UInt8(ascii: ".")) else { return true }
      let fraction = index
      skip(while: isDigit)
      return (1...3).contains(index - fraction) && index - start <= 16
    }
  }

  private static func isLowercase(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }
  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
  private static func isAlpha(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }
  private static func isTokenCharacter(_ byte: UInt8) -> Bool {
    LinkFieldParser.isTokenCharacter(byte)
  }
}
