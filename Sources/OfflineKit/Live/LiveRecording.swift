/// The decisions of one live HLS media playlist recording, as a value (issue 41, first step).
/// A live DASH track is recorded through it too (`DASHLiveRecorder` feeds it the segments an
/// MPD makes available, numbered as its template numbers them), so it lives in `Live/` with
/// the journal, the ledger and the state file the two share; `HLS/Live` and `DASH/Live` keep
/// what each format adds.
///
/// The caller reloads the playlist, fetches segments and keeps the time; it tells this value
/// what happened (a reload answered or failed, a segment was fetched or failed after its
/// retries, a stop was asked), each event with its instant, and carries out the ``Action``s
/// it answers. It does no I/O and never reads a clock, so its rules are tested as tables,
/// one row per test (`LiveRecordingTests`), and by randomized reload sequences
/// (`LiveRecordingInvariantTests`).
///
/// It follows RFC 8216 §6.3.4 (reloading) and §6.3.3 (where to start): a segment is
/// identified by its media-sequence number, never by its URI, and a number is asked for at
/// most once in a process. Every number from the first recorded one on is settled into
/// ``LiveJournal/recorded`` or the gap ledger, never left as a silent hole:
///
/// - a window that jumps forward past numbers never seen ledgers them as
///   ``LiveGap/Reason/fellOutOfWindow`` (``LiveGap/Reason/notRunning`` on the first reload
///   after a resume);
/// - a window that goes backwards (a stale answer from another CDN edge, or an origin that
///   renumbered) brings nothing below ``LiveJournal/nextSequence``: it counts as an unchanged
///   reload, so nothing is fetched twice; an origin that really started over at lower numbers
///   ends by silence unless its numbers pass the old ones; a resume waits for an answer that
///   is not behind before it settles what went by;
/// - a fetch that fails after its retries ledgers its number as
///   ``LiveGap/Reason/failedAfterRetries``, or ``LiveGap/Reason/fellOutOfWindow`` when the
///   window had already left it.
///
/// Its state is spread over this file and its extensions (one per kind of event), so its
/// properties are not private; only its own event methods change them.
///
/// ```swift
/// var recording = LiveRecording(configuration: .init(start: .liveEdge))
/// for action in recording.didReload(playlist, at: clock.instant) {
///   switch action {
///   case .fetch(let segments): engine.fetch(segments)
///   case .reload(let wait): scheduleReload(after: wait)
///   case .recordGap(let gap): journal.write(gap)
///   case .finish, .fail: close()
///   }
/// }
/// save(recording.journal)
/// ```
struct LiveRecording: Sendable {
  /// Where the recording is in its life.
  enum Phase: Sendable, Equatable {
    /// No playlist has answered yet.
    case starting
    /// Resumed from a journal; the next answer decides what went by meanwhile.
    case resuming(ResumePoint)
    /// Following the playlist.
    case recording
    /// Finishing for this reason once the fetches asked for are settled; no reload.
    case draining(FinishReason)
    /// Finished; every event is ignored.
    case finished(FinishReason)
    /// Failed; every event is ignored.
    case failed(FailReason)
  }

  /// How it starts, ends and gives up. Set by the caller only to lower
  /// ``Configuration/recordFor`` (a live DASH Period's tracks share what earlier Periods left).
  var configuration: Configuration
  /// What is settled, by sequence number: what the caller saves.
  var journal: LiveJournal
  /// Where the recording is in its life.
  var phase: Phase
  /// When the last new segment appeared (or the first answer came).
  var lastNewSegmentAt: ContinuousClock.Instant?
  /// When the playlist last answered, or the first failing reload of a run with no answer.
  var lastAnswerAt: ContinuousClock.Instant?
  /// The reloads that failed since the last answer.
  var failedReloads = 0
  /// The first number of the last window that answered: a fetch failing below it failed
  /// because the segment had left the window.
  var windowStart: Int?

  /// A recording that has not started: the first reload's answer picks the start point.
  init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.journal = LiveJournal()
    self.phase = .starting
  }

  /// A recording that goes on from `journal`, written by an earlier run; the numbers that
  /// run asked for and did not see settled are fetched again while the window holds them.
  init(
    resuming journal: LiveJournal, from point: ResumePoint = .whereLeft,
    configuration: Configuration = Configuration()
  ) {
    self.configuration = configuration
    self.journal = journal
    self.phase = journal.nextSequence == nil ? .starting : .resuming(point)
  }

  /// Whether the recording finished or failed: it asks for nothing more.
  var isOver: Bool {
    switch phase {
    case .finished, .failed: true
    default: false
    }
  }

  /// The segment `sequence` was fetched and is on disk. A number not asked for (reported
  /// twice) changes nothing. After a failure it is still settled, so the journal stays true.
  mutating func didFetch(_ sequence: Int) -> [Action] {
    guard let seconds = journal.asked.removeValue(forKey: sequence) else { return [] }
    journal.recorded.insert(sequence)
    journal.recordedSeconds += seconds
    return finishIfDrained()
  }

  /// The segment `sequence` failed after its retries: it goes into the ledger. A number not
  /// asked for changes nothing.
  mutating func didFailToFetch(_ sequence: Int) -> [Action] {
    guard journal.asked.removeValue(forKey: sequence) != nil else { return [] }
    let left = windowStart.map { sequence < $0 } ?? false
    let gap = LiveGap(
      sequences: sequence...sequence, reason: left ? .fellOutOfWindow : .failedAfterRetries)
    journal.ledger.add(gap)
    return [.recordGap(gap)] + finishIfDrained()
  }

  /// A stop was asked at `now`: the recording finishes once the fetches asked for are
  /// settled, and fetches nothing new. A recording already finishing keeps its reason.
  ///
  /// Stopped after a resume and before any answer, the numbers the earlier run asked for are
  /// fetched by nobody: they become ``LiveGap/Reason/notRunning`` gaps, and it finishes.
  mutating func didAskToStop(_ request: StopRequest, at now: ContinuousClock.Instant) -> [Action] {
    var actions: [Action] = []
    switch phase {
    case .finished, .failed, .draining: return []
    case .resuming:
      actions = ledgerAsked(journal.asked.keys, reason: .notRunning)
    case .starting, .recording: break
    }
    phase = .draining(request.finishReason)
    return actions + finishIfDrained()
  }

  /// Takes `numbers` out of the asked ones into the ledger, one gap per run of consecutive
  /// numbers.
  mutating func ledgerAsked(_ numbers: some Sequence<Int>, reason: LiveGap.Reason) -> [Action] {
    SequenceRanges(numbers).runs.map { run in
      for sequence in run { journal.asked[sequence] = nil }
      let gap = LiveGap(sequences: run, reason: reason)
      journal.ledger.add(gap)
      return .recordGap(gap)
    }
  }

  /// Finishes when draining and nothing is asked any more.
  mutating func finishIfDrained() -> [Action] {
    guard case .draining(let reason) = phase, journal.asked.isEmpty else { return [] }
    phase = .finished(reason)
    return [.finish(reason)]
  }
}
