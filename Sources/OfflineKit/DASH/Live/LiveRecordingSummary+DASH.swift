import Foundation

extension LiveRecordingSummary {
  /// The summary of `state`, the journal of a live DASH recording (see
  /// `init(_:downloading:)` of ``DASHLiveState/Summary``).
  init(_ state: DASHLiveState, downloading: Bool) {
    self.init(DASHLiveState.Summary(state), downloading: downloading)
  }

  /// The summary of `state`, the part of a live DASH recording's journal it needs, as that
  /// of a live HLS one: the recorded seconds and segments of each Period's shortest track,
  /// summed (what the offline MPD plays), the gaps of all its tracks (each distinct gap
  /// once, in order; a number is a segment's `$Number$`, or the recorder's number for
  /// `$Time$` names), and how far its furthest-behind track is from the live edge while it
  /// records. `downloading` says whether its content is downloading.
  init(_ state: DASHLiveState.Summary, downloading: Bool) {
    let journals = state.tracks.map(\.journal)
    let recording = downloading && state.finished == nil
    var gaps: [Gap] = []
    let missed = state.missedPeriods ?? []
    for track in state.tracks {
      let period = missed.first { $0.key == track.periodKey }
      for gap in track.journal.ledger.gaps {
        var entry = Gap(
          firstSequence: gap.sequences.lowerBound, lastSequence: gap.sequences.upperBound,
          reason: Gap.Reason(gap.reason))
        if let period { entry.missedPeriod(period) }
        if !gaps.contains(entry) { gaps.append(entry) }
      }
    }
    // A missed Period whose segments have no numbers (named by `$Time$`): its span alone.
    for period in missed
    where !gaps.contains(where: { $0.period == (period.id ?? "") && $0.periodStart == period.start }
    ) {
      var entry = Gap(firstSequence: 0, lastSequence: -1, reason: Gap.Reason(period.reason))
      entry.missedPeriod(period)
      gaps.append(entry)
    }
    gaps.sort { ($0.firstSequence, $0.lastSequence) < ($1.firstSequence, $1.lastSequence) }
    self.init(
      recordedSeconds: state.sumOfShortest(\.recordedSeconds),
      recordedSegments: state.sumOfShortest(\.recorded.count), gaps: gaps,
      isRecording: recording,
      liveEdgeDelay: recording ? journals.map { $0.asked.values.reduce(0, +) }.max() ?? 0 : nil,
      finishReason: state.finished?.rawValue)
  }
}

extension LiveRecordingSummary.Gap {
  /// Says the gap is the whole Period `period`, which left the MPD with nothing recorded.
  mutating func missedPeriod(_ period: DASHLiveState.MissedPeriod) {
    self.period = period.id ?? ""
    periodStart = period.start
    periodEnd = period.end
  }
}
