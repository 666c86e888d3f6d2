extension LiveRecording {
  /// Where a live recording starts, chosen on the first playlist that answers.
  enum StartPoint: Sendable, Equatable {
    /// As players start (RFC 8216 §6.3.3): the last segment that starts at least three
    /// target durations before the end of the playlist.
    case liveEdge
    /// The oldest segment still in the window (`--from-start`).
    case fromStart
    /// The last segment that starts at least this many seconds before the end of the
    /// playlist; 0 records only segments that appear after the first reload.
    case secondsBack(Double)
  }

  /// A length of time given in target durations (so it follows the stream) or fixed.
  enum Span: Sendable, Equatable {
    /// This many times the playlist's target duration.
    case targetDurations(Double)
    /// A fixed length.
    case fixed(Duration)

    /// The length for a playlist whose target duration is `target` seconds.
    func duration(target: Int) -> Duration {
      switch self {
      case .targetDurations(let count): .seconds(Double(target) * count)
      case .fixed(let duration): duration
      }
    }
  }

  /// How a live recording starts, decides the stream has ended, and gives up.
  struct Configuration: Sendable, Equatable {
    /// Where the recording starts.
    var start: StartPoint
    /// How long the playlist may answer without a new segment before the stream counts as
    /// ended (ended by silence).
    var endAfterSilence: Span
    /// How long reloads may fail in a row (no answer, or an HTTP error) before the recording
    /// fails; longer than ``endAfterSilence``, as a failing origin may come back.
    var failAfterFailingReloads: Span
    /// The longest wait between two failing reloads (they back off from half a target
    /// duration, doubling).
    var longestReloadBackoff: Span
    /// Seconds of media to record at most (`--record-for`, or a `--split` part's share);
    /// nil records on. ``LiveRecording`` asks for segments while the seconds recorded and
    /// asked stay below it, the segment that reaches it included, then finishes with
    /// ``FinishReason/durationReached`` (its share rule, `LiveRecording+Share.swift`).
    var recordFor: Double?

    /// A configuration; the defaults end after 6 target durations without a new segment
    /// and fail after 20 target durations of failing reloads.
    init(
      start: StartPoint = .liveEdge, endAfterSilence: Span = .targetDurations(6),
      failAfterFailingReloads: Span = .targetDurations(20),
      longestReloadBackoff: Span = .targetDurations(2), recordFor: Double? = nil
    ) {
      self.start = start
      self.endAfterSilence = endAfterSilence
      self.failAfterFailingReloads = failAfterFailingReloads
      self.longestReloadBackoff = longestReloadBackoff
      self.recordFor = recordFor
    }
  }

  /// Where a resumed recording goes on.
  enum ResumePoint: Sendable, Equatable {
    /// Where it left off: every number still in the window is fetched, only those that left
    /// it meanwhile are a gap (after a kill: the same command again).
    case whereLeft
    /// At the live edge, as ``StartPoint/liveEdge`` chooses it; the numbers before it that
    /// were never seen are a ``LiveGap/Reason/notRunning`` gap (after a pause).
    case liveEdge
  }
}
