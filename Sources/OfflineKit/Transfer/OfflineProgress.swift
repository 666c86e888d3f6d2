/// How far a download is: one value for a file and for a stream, the same from a
/// ``Transfer`` and from a content's events.
///
/// Never moves backwards (bytes and fraction), except after a transfer's `restarted`
/// event; a stream's fraction stays below 1 until its last piece is on disk.
public struct OfflineProgress: Sendable, Equatable {
  /// Bytes on disk.
  public var bytes: Int64
  /// The total, when known or estimated.
  public var total: Int64?
  /// Whether ``total`` is an estimate that may still change (a stream whose piece sizes
  /// are not all known yet).
  public var totalIsEstimate: Bool
  /// For a stream: media segments on disk; nil for a file.
  public var segmentsDone: Int?
  /// For a stream: media segments planned; nil for a file.
  public var segmentsTotal: Int?
  /// A smoothed rate, in bytes per second (0 until it is known).
  public var bytesPerSecond: Double

  /// Creates a progress value.
  public init(
    bytes: Int64, total: Int64?, totalIsEstimate: Bool = false, segmentsDone: Int? = nil,
    segmentsTotal: Int? = nil, bytesPerSecond: Double = 0
  ) {
    self.bytes = bytes
    self.total = total
    self.totalIsEstimate = totalIsEstimate
    self.segmentsDone = segmentsDone
    self.segmentsTotal = segmentsTotal
    self.bytesPerSecond = bytesPerSecond
  }

  /// The time left at the current rate, when the total is known and the rate above zero.
  public var secondsRemaining: Double? {
    guard let total, bytesPerSecond > 0 else { return nil }
    return Double(max(0, total - bytes)) / bytesPerSecond
  }

  /// The fraction done, from 0 to 1, when the total is known.
  public var fractionCompleted: Double? {
    guard let total, total > 0 else { return nil }
    return min(1, Double(bytes) / Double(total))
  }
}
