extension Duration {
  /// The duration in seconds, as a `Double` (attosecond precision folded in).
  public var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// The duration in whole milliseconds, toward zero; `Int.max` (or `.min`) when it does
  /// not fit.
  public var inMilliseconds: Int {
    let (seconds, attoseconds) = components
    let (whole, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    return whole + Int(attoseconds / 1_000_000_000_000_000)
  }
}
