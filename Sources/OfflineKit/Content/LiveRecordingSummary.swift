/// What a live recording holds (issue 41): how much media, how many segments, which
/// media-sequence numbers are missing and why, and whether it still records. A content that
/// is a live recording has one in its ``OfflineContent/Snapshot/live``; `offline ls`,
/// `offline info ID` and their `--json` show it.
///
/// It is read from the recording's journal (`live.json` in the content's folder), which the
/// recorder writes after every segment it settles, so a running recording's summary is as
/// fresh as its last segment.
///
/// ```swift
/// if let live = try await content.snapshot.live {
///   print("\(live.recordedSegments) segments, \(live.gaps.count) gaps")
/// }
/// ```
public struct LiveRecordingSummary: Sendable, Equatable, Codable {
  /// Media-sequence numbers missing from a recording, and why: one entry of its gap ledger.
  public struct Gap: Sendable, Equatable, Hashable, Codable {
    /// Why numbers are missing.
    public enum Reason: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
      /// The live window moved past them before they were fetched.
      case fellOutOfWindow
      /// Their fetch failed after its retries while they were still in the window.
      case failedAfterRetries
      /// The recorder was not running while they were in the window (a kill, a pause).
      case notRunning

      /// The reason in a few words, such as `failed after retries`.
      public var words: String {
        switch self {
        case .fellOutOfWindow: "fell out of the live window"
        case .failedAfterRetries: "failed after retries"
        case .notRunning: "recorder not running"
        }
      }
    }

    /// The first missing number.
    public var firstSequence: Int
    /// The last missing number (equal to ``firstSequence`` for one segment).
    public var lastSequence: Int
    /// Why they are missing.
    public var reason: Reason
    /// For a gap that is a whole Period of a live DASH presentation, which left the MPD with
    /// nothing of it recorded: the Period's `@id` (empty when it has none). Its numbers are
    /// its segments' (none, `lastSequence` below `firstSequence`, when they are named by
    /// time). Nil for a gap inside a recorded Period or of a live HLS stream.
    public var period: String?
    /// When that Period starts, in seconds of the presentation, when known.
    public var periodStart: Double?
    /// When that Period ends, in seconds of the presentation, when known.
    public var periodEnd: Double?

    /// How many numbers the gap holds.
    public var count: Int { max(lastSequence - firstSequence + 1, 0) }

    /// A gap from `firstSequence` to `lastSequence`, both included.
    public init(firstSequence: Int, lastSequence: Int, reason: Reason) {
      self.firstSequence = firstSequence
      self.lastSequence = lastSequence
      self.reason = reason
    }
  }

  /// Seconds of media recorded (the sum of the recorded segments' `EXTINF` durations).
  public var recordedSeconds: Double
  /// Segments on disk.
  public var recordedSegments: Int
  /// The missing runs of media-sequence numbers, in order, each with its reason.
  public var gaps: [Gap]
  /// Whether it still records: the content is downloading and the recording has not
  /// finished. False for a finished recording and for one paused or stopped.
  public var isRecording: Bool
  /// For a recording that is running, how far it is behind the live edge, in seconds of
  /// media: the segments the live playlist listed that are not on disk yet. Nil when it does
  /// not record.
  public var liveEdgeDelay: Double?
  /// Why it finished (`endList`, `durationReached`, `untilReached`, `stopped`,
  /// `endedBySilence`); nil while it records, or after a kill.
  public var finishReason: String?
  /// For a part of a recording split through the queue (``LiveRecordingOptions/splitEvery``):
  /// the id of the recording's first part, which names the recording; nil for a recording
  /// that is not split.
  public var recordingID: String? = nil
  /// For a part of a recording split through the queue: its number in the recording, from 1
  /// (the part whose id is ``recordingID``); nil for a recording that is not split.
  public var part: Int? = nil

  /// A summary with these values.
  public init(
    recordedSeconds: Double, recordedSegments: Int, gaps: [Gap], isRecording: Bool,
    liveEdgeDelay: Double? = nil, finishReason: String? = nil
  ) {
    self.recordedSeconds = recordedSeconds
    self.recordedSegments = recordedSegments
    self.gaps = gaps
    self.isRecording = isRecording
    self.liveEdgeDelay = liveEdgeDelay
    self.finishReason = finishReason
  }

  /// How many media-sequence numbers the gaps hold in all.
  public var missingSegments: Int { gaps.reduce(0) { $0 + $1.count } }
}
