/// `xs:duration` values as DASH uses them (ISO 8601 §4.4.3.2, XML Schema Part 2 §3.2.6):
/// `PT6S`, `PT1H2M3.5S`, `P1DT12H`.
///
/// A year counts 365 days and a month 30, as players do; negative durations are refused.
enum ISODuration {
  /// The seconds `text` stands for, or nil when it is not a duration, is negative, or is too
  /// large for a `Double`.
  static func seconds(_ text: String) -> Double? {
    var rest = Substring(text)
    guard rest.first == "P" else { return nil }
    rest = rest.dropFirst()
    var total = 0.0
    var inTime = false
    var sawField = false
    var order = 0  // index of the last field seen, so each comes once and in order
    let dateUnits: [Character: (Int, Double)] = [
      "Y": (1, 31_536_000), "M": (2, 2_592_000), "D": (3, 86_400),
    ]
    let timeUnits: [Character: (Int, Double)] = ["H": (5, 3_600), "M": (6, 60), "S": (7, 1)]
    while let first = rest.first {
      if first == "T" {
        guard !inTime, rest.count > 1 else { return nil }
        inTime = true
        order = max(order, 4)
        rest = rest.dropFirst()
        continue
      }
      let number = rest.prefix { $0.isASCIIDigit || $0 == "." }
      rest = rest.dropFirst(number.count)
      guard let unit = rest.first, let value = decimal(number) else { return nil }
      rest = rest.dropFirst()
      guard let (index, scale) = (inTime ? timeUnits : dateUnits)[unit], index > order else {
        return nil
      }
      // Only seconds may have a fraction.
      guard unit == "S" || !number.contains(".") else { return nil }
      order = index
      sawField = true
      total += value * scale
    }
    guard sawField, total.isFinite else { return nil }
    return total
  }

  /// The duration written as `PT<seconds>S`, in plain decimal digits, which `seconds(_:)`
  /// reads back to exactly `seconds`.
  static func text(_ seconds: Double) -> String { "PT\(DecimalText.plain(seconds))S" }

  /// A run of digits with at most one `.` and a digit on at least one side of it.
  private static func decimal(_ text: Substring) -> Double? {
    guard !text.isEmpty, text != ".", text.filter({ $0 == "." }).count <= 1 else { return nil }
    return Double(text)
  }
}
