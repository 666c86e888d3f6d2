/// A frame rate as DASH writes it: `25` or `30000/1001` (ISO/IEC 23009-1 §5.3.7.2), or as
/// manifests from the field also write it and players read it, a decimal number (`30.0`,
/// `29.97`), kept as the same fraction (`2997/100`).
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
  /// Frames per `denominator` seconds.
  public var numerator: Int
  /// Seconds; nil when the rate was written without one (a whole number of frames a second).
  public var denominator: Int?

  /// Creates a frame rate of `numerator` frames per `denominator` seconds.
  public init(numerator: Int, denominator: Int? = nil) {
    self.numerator = numerator
    self.denominator = denominator
  }

  /// Parses `N`, `N/D` with positive `D`, or a decimal `N.F` (at most 9 digits after the
  /// point, reduced: `30.0` is 30, `15.50` is 31/2); nil for anything else.
  public init?(_ text: String) {
    if let point = text.firstIndex(of: ".") {
      let whole = text[..<point]
      let fraction = text[text.index(after: point)...]
      guard !whole.isEmpty, !fraction.isEmpty, fraction.count <= 9,
        (whole + fraction).allSatisfy(\.isASCIIDigit),
        let wholeValue = Int(whole), let fractionValue = Int(fraction)
      else { return nil }
      var scale = 1
      for _ in fraction { scale *= 10 }
      let (scaled, o1) = wholeValue.multipliedReportingOverflow(by: scale)
      let (numerator, o2) = scaled.addingReportingOverflow(fractionValue)
      guard !(o1 || o2) else { return nil }
      let divisor = Self.greatestCommonDivisor(numerator, scale)
      self.numerator = numerator / divisor
      self.denominator = scale / divisor == 1 ? nil : scale / divisor
      return
    }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, parts[0].allSatisfy(\.isASCIIDigit), let numerator = Int(parts[0])
    else { return nil }
    self.numerator = numerator
    if parts.count == 2 {
      guard let denominator = Int(parts[1]), denominator > 0 else { return nil }
      self.denominator = denominator
    } else {
      self.denominator = nil
    }
  }

  private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return max(a, 1)
  }

  /// Frames per second.
  public var framesPerSecond: Double { Double(numerator) / Double(denominator ?? 1) }

  /// The rate as written in an MPD.
  public var description: String {
    denominator.map { "\(numerator)/\($0)" } ?? "\(numerator)"
  }
}
