/// Hexadecimal digits in ASCII, read and written one way for every module of the package: an
/// HLS initialization vector, a percent-encoded header byte, a kernel route table, a SHA-256.
///
/// Only `0`-`9`, `a`-`f` and `A`-`F` are digits. `Character.isHexDigit` also accepts their
/// fullwidth forms (`ａ`, `０`), which no protocol or file here allows; checks go through
/// ``isDigits(_:count:)`` instead.
package enum ASCIIHex {
  /// The value of one hexadecimal digit, or nil for any other byte.
  package static func value(ofDigit byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The bytes `digits` spell, two digits a byte, the first the high half; nil when their
  /// count is odd or one is not a hexadecimal digit.
  package static func bytes(_ digits: some Collection<UInt8>) -> [UInt8]? {
    guard digits.count.isMultiple(of: 2) else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var high: UInt8?
    for digit in digits {
      guard let value = value(ofDigit: digit) else { return nil }
      if let first = high {
        result.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    return result
  }

  /// `bytes` as two digits each, lowercase unless `uppercase`.
  package static func digits(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
    let alphabet = uppercase ? upperDigits : lowerDigits
    var text: [UInt8] = []
    text.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      text.append(alphabet[Int(byte >> 4)])
      text.append(alphabet[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Whether `text` is exactly `count` hexadecimal digits (nil: one or more), in any case.
  package static func isDigits(_ text: some StringProtocol, count: Int? = nil) -> Bool {
    let utf8 = text.utf8
    guard count.map({ utf8.count == $0 }) ?? !utf8.isEmpty else { return false }
    return utf8.allSatisfy { value(ofDigit: $0) != nil }
  }

  private static let lowerDigits = Array("0123456789abcdef".utf8)
  private static let upperDigits = Array("0123456789ABCDEF".utf8)
}
