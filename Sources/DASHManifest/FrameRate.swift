/// A frame rate as DASH writes it: `25` or `30000/1001` (ISO/IEC 23009-1 §5.3.7.2).
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

  /// Parses `N` or `N/D` with positive `D`; nil for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, let numerator = Int(parts[0]), numerator >= 0 else { return nil }
    self.numerator = numerator
    if parts.count == 2 {
      guard let denominator = Int(parts[1]), denominator > 0 else { return nil }
      self.denominator = denominator
    } else {
      self.denominator = nil
    }
  }

  /// Frames per second.
  public var framesPerSecond: Double { Double(numerator) / Double(denominator ?? 1) }

  /// The rate as written in an MPD.
  public var description: String {
    denominator.map { "\(numerator)/\($0)" } ?? "\(numerator)"
  }
}
