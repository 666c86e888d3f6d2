import OfflineStore

/// The bytes of a file that are on disk, as sorted runs that do not touch: what a reader may
/// read of a file still downloading.
struct LandedBytes: Sendable, Equatable {
  /// The runs on disk, in file order.
  private(set) var runs: [Range<Int64>]

  /// No byte.
  static let none = LandedBytes(runs: [])

  /// The runs `runs` cover (in any order, touching or overlapping), merged.
  init(runs: [Range<Int64>]) {
    var merged: [Range<Int64>] = []
    for run in runs.sorted(by: { $0.lowerBound < $1.lowerBound }) where !run.isEmpty {
      if let last = merged.last, run.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, run.upperBound)
      } else {
        merged.append(run)
      }
    }
    self.runs = merged
  }

  /// The written part of each of a segmented download's ranges.
  init(ranges: [TransferRange]) {
    self.init(runs: ranges.map { $0.start..<max($0.start, min($0.next, $0.end)) })
  }

  /// The first `count` bytes.
  init(prefix count: Int64) {
    self.init(runs: count > 0 ? [0..<count] : [])
  }

  /// How many bytes from `offset` on are on disk without a gap (0: the byte at `offset` is
  /// not).
  func available(from offset: Int64) -> Int64 {
    guard let run = runs.first(where: { $0.contains(offset) }) else { return 0 }
    return run.upperBound - offset
  }

  /// Bytes on disk in all.
  var count: Int64 { runs.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }
}
