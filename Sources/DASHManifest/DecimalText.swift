/// Writes a finite `Double` in plain decimal digits (`0.0000001`, never `1e-07`), the
/// shortest text that reads back to the same value.
enum DecimalText {
  /// `value` in plain digits; Swift's shortest round-trip digits, with the exponent applied.
  static func plain(_ value: Double) -> String {
    let text = "\(value)"
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
      let exponent = Int(text[text.index(after: e)...])
    else { return text }
    var mantissa = String(text[..<e])
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa.removeFirst() }
    let dot = mantissa.firstIndex(of: ".")
    let integerDigits =
      dot.map { mantissa.distance(from: mantissa.startIndex, to: $0) }
      ?? mantissa.count
    let digits = mantissa.filter { $0 != "." }
    let point = integerDigits + exponent
    var result: String
    if point <= 0 {
      result = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
      result = digits + String(repeating: "0", count: point - digits.count) + ".0"
    } else {
      let index = digits.index(digits.startIndex, offsetBy: point)
      result = digits[..<index] + "." + digits[index...]
    }
    return (negative ? "-" : "") + result
  }
}
