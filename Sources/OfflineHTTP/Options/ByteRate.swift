/// A transfer rate in bytes per second, written as curl writes `--limit-rate`: a number with
/// an optional unit `k`, `M` or `G` (powers of 1024), such as `500k` or `2M`.
public struct ByteRate: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// Bytes per second, above zero.
  public var bytesPerSecond: Int64

  /// Creates a rate.
  public init(bytesPerSecond: Int64) {
    self.bytesPerSecond = max(1, bytesPerSecond)
  }

  /// Parses `500k`, `2M`, `1.5M`, `1G` or a plain number of bytes.
  ///
  /// - Throws: ``RequestOptionError`` (for `--limit-rate`) when the text is not a rate.
  public init(parsing text: String) throws(RequestOptionError) {
    let trimmed = Substring(text).trimmingHTTPWhitespace()
    let units: [Character: Double] = [
      "k": 1024, "K": 1024, "m": 1_048_576, "M": 1_048_576, "g": 1_073_741_824,
      "G": 1_073_741_824,
    ]
    var number = Substring(trimmed)
    var scale = 1.0
    if let last = number.last, let unit = units[last] {
      scale = unit
      number = number.dropLast()
    }
    guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      number.filter({ $0 == "." }).count <= 1, let value = Double(number), value > 0,
      value * scale < 1e15
    else {
      throw RequestOptionError(
        option: "--limit-rate",
        message: "'\(text)' is not a rate: give bytes per second, such as 500k, 2M or 1G")
    }
    self.init(bytesPerSecond: Int64(value * scale))
  }

  /// `2.0 MiB/s`.
  public var description: String {
    let units = ["B", "KiB", "MiB", "GiB"]
    var value = Double(bytesPerSecond)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let text = value.rounded() == value ? "\(Int64(value))" : "\((value * 10).rounded() / 10)"
    return "\(text) \(units[unit])/s"
  }
}
