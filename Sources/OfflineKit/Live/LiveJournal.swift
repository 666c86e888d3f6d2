/// What a live HLS recording has settled, by media-sequence number: the part of
/// ``LiveRecording`` that outlives the process. The caller writes it down after the actions
/// of each event (it is `Codable`) and hands it to ``LiveRecording/init(resuming:from:configuration:)``
/// after a kill or a pause.
///
/// It holds no instant: a monotonic instant means nothing in another process, so the time a
/// recorder was down is measured in sequence numbers, as a ``LiveGap/Reason/notRunning`` gap.
///
/// Every number from ``firstSequence`` up to ``nextSequence`` (excluded) is in exactly one of
/// ``recorded``, ``ledger`` and ``asked``.
struct LiveJournal: Sendable, Equatable, Codable {
  /// The number the recording started at, nil before the first playlist answered.
  var firstSequence: Int?
  /// The lowest number not yet seen in a window (nor skipped): the next new segment's
  /// number. Once the share is spent (``LiveRecording/isShareSpent``), the first number
  /// not asked for: where the next part of a split recording starts.
  var nextSequence: Int?
  /// The numbers whose segment is on disk.
  var recorded = SequenceRanges()
  /// The numbers that are missing, with why.
  var ledger = LiveGapLedger()
  /// The numbers asked to be fetched and not yet reported, with their duration in seconds.
  var asked: [Int: Double] = [:]
  /// The sum of the recorded segments' durations, in seconds.
  var recordedSeconds: Double = 0
  /// The playlist's last target duration in seconds, nil before it answered.
  var targetDuration: Int?

  /// A journal with nothing settled: a recording that has not started.
  init() {}

  /// The last number recorded, nil when none is.
  var lastRecorded: Int? { recorded.last }

  /// The numbers between the first and `nextSequence` that are in none of recorded, ledger
  /// and asked: always empty (the invariant the tests check).
  func unaccounted() -> [Int] {
    guard let first = firstSequence, let next = nextSequence, first < next else { return [] }
    return (first..<next).filter { number in
      !recorded.contains(number) && ledger.gap(containing: number) == nil && asked[number] == nil
    }
  }
}
