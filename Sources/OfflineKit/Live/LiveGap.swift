/// Media-sequence numbers of a live recording that are not on disk, and why: one entry of
/// the gap ledger (issue 41). A recording never has a silent hole: every number between its
/// first and its last recorded one is recorded or in a gap.
struct LiveGap: Sendable, Equatable, Hashable, Codable {
  /// Why numbers are missing.
  enum Reason: String, Sendable, Equatable, Hashable, Codable {
    /// A reload showed the window had moved past them before they were fetched: never seen,
    /// or asked for and failing once the window had left them.
    case fellOutOfWindow
    /// Their fetch failed after its retries while they were still in the window.
    case failedAfterRetries
    /// The recorder was not running while they were in the window (a kill, a pause), or a
    /// resume from the live edge skipped them.
    case notRunning
  }

  /// The missing numbers, a contiguous run.
  var sequences: ClosedRange<Int>
  /// Why they are missing.
  var reason: Reason
}

/// Every gap of a recording, sorted by sequence number; adjacent gaps with the same reason
/// are kept as one.
struct LiveGapLedger: Sendable, Equatable, Codable {
  /// The gaps, sorted, never overlapping.
  private(set) var gaps: [LiveGap] = []

  /// An empty ledger.
  init() {}

  /// How many numbers the ledger holds.
  var count: Int { gaps.reduce(0) { $0 + $1.sequences.count } }

  /// The gap that holds `number`, nil when none does.
  func gap(containing number: Int) -> LiveGap? {
    gaps.first { $0.sequences.contains(number) }
  }

  /// Adds `gap`, merged with a neighbour that touches it and has the same reason. The
  /// caller never adds a number twice (the recording settles each number once).
  mutating func add(_ gap: LiveGap) {
    let position = gaps.firstIndex { $0.sequences.lowerBound > gap.sequences.upperBound }
    let index = position ?? gaps.count
    gaps.insert(gap, at: index)
    if index + 1 < gaps.count, joins(gaps[index], gaps[index + 1]) {
      gaps[index].sequences =
        gaps[index].sequences
        .lowerBound...gaps[index + 1].sequences
        .upperBound
      gaps.remove(at: index + 1)
    }
    if index > 0, joins(gaps[index - 1], gaps[index]) {
      gaps[index - 1].sequences =
        gaps[index - 1].sequences
        .lowerBound...gaps[index].sequences
        .upperBound
      gaps.remove(at: index)
    }
  }

  /// Whether `later` starts right after `earlier` ends, for the same reason.
  private func joins(_ earlier: LiveGap, _ later: LiveGap) -> Bool {
    earlier.reason == later.reason && earlier.sequences.upperBound + 1 == later.sequences.lowerBound
  }
}
