/// The bytes an attempt's progress reports said, from its first to its latest: whether bytes
/// arrived during the attempt. The queue's retry and refresh counts start over when they did
/// (``RunningDownload``, ``ContentDownload/run(refreshing:contentID:onEvent:)``).
struct AttemptBytes: Sendable, Equatable {
  /// The bytes on disk at the attempt's first report (what it resumed from); nil before it.
  private(set) var first: Int64?
  /// The bytes on disk at its latest report.
  private(set) var last: Int64 = 0

  /// Takes a report of `bytes` on disk; returns whether it was the attempt's first.
  @discardableResult
  mutating func saw(_ bytes: Int64) -> Bool {
    last = bytes
    guard first == nil else { return false }
    first = bytes
    return true
  }

  /// Whether bytes arrived since the first report.
  var progressed: Bool { last > (first ?? last) }

  /// Whether a report came: bytes arrive.
  var reported: Bool { first != nil }
}
