import HexDigits

/// Checked parsing and exact formatting of the numbers of RFC 8216 §4.2: decimal-integer,
/// decimal-floating-point and hexadecimal-sequence. Nothing here traps on any input.
enum DecimalParsing {
  /// A decimal-integer (`[0-9]+`) that fits in `Int64`, or nil.
  static func integer64(_ text: Substring) -> Int64? {
    guard !text.utf8.isEmpty else { return nil }
    var value: Int64 = 0
    for byte in text.utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
    }
    return value
  }

  /// A decimal-integer that fits in `Int`, or nil.
  static func integer(_ text: Substring) -> Int? {
    integer64(text).flatMap { Int(exactly: $0) }
  }

  /// A non-negative decimal-floating-point (`[0-9]+(.[0-9]*)?` or `.[0-9]+`) that is finite
  /// as a `Double`, or nil.
  static func decimal(_ text: Substring) -> Double? {
    var digits = 0
    var points = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: ".") {
        points += 1
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        digits += 1
      } else {
        return nil
      }
    }
    guard digits > 0, points <= 1, let value = Double(String(text)), value.isFinite else {
      return nil
    }
    return value
  }

  /// `value` in positional decimal notation with the fewest digits that parse back to the
  /// same `Double`, without an exponent and without a trailing `.0` (`10`, `9.009`,
  /// `0.00001`). `value` must be finite and non-negative.
  static func format(_ value: Double) -> String {
    guard value.isFinite, value >= 0 else { return "0" }
    let shortest = String(describing: value)  // "d.ddd" or "d.ddde[+-]x"
    let parts = shortest.split(separator: "e", maxSplits: 1)
    let mantissa = parts.first ?? Substring(shortest)
    let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
    let pointIndex = mantissa.firstIndex(of: ".")
    let integerDigits =
      pointIndex.map { mantissa.distance(from: mantissa.startIndex, to: $0) }
      ?? mantissa.count
    let digits = Array(mantissa.filter { $0 != "." })
    let point = integerDigits + exponent
    var text: String
    if point <= 0 {
      text = "0." + String(repeating: "0", count: -point) + String(digits)
    } else if point >= digits.count {
      text = String(digits) + String(repeating: "0", count: point - digits.count)
    } else {
      text = String(digits[..<point]) + "." + String(digits[point...])
    }
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    while text.count > 1, text.hasPrefix("0"), !text.hasPrefix("0.") { text.removeFirst() }
    return text
  }

  /// The 16 bytes of a hexadecimal-sequence read as a 128-bit unsigned integer (RFC 8216
  /// §4.3.2.4), big-endian: `0x` or `0X` and one or more hexadecimal digits, zeros added on
  /// the left of a shorter one (`0x2` is 15 zero bytes and a 2); nil for anything else or a
  /// value past 128 bits.
  static func initializationVector(_ text: Substring) -> [UInt8]? {
    let bytes = Array(text.utf8)
    guard bytes.count > 2, bytes[0] == UInt8(ascii: "0"),
      bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X")
    else { return nil }
    var digits = bytes[2...].drop { $0 == UInt8(ascii: "0") }
    guard digits.count <= 32, bytes[2...].allSatisfy({ ASCIIHex.value(ofDigit: $0) != nil })
    else { return nil }
    let padding = 32 - digits.count
    digits = ArraySlice(repeating: UInt8(ascii: "0"), count: padding) + digits
    return ASCIIHex.bytes(digits)
  }

  /// `bytes` as `0x` and two uppercase hexadecimal digits per byte.
  static func hex(_ bytes: [UInt8]) -> String {
    "0x" + ASCIIHex.digits(bytes, uppercase: true)
  }
}
