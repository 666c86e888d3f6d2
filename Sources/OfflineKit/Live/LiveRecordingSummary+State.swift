import Foundation

extension LiveRecordingSummary {
  /// The summary of `state`, the journal of a recording; `downloading` says whether its
  /// content is downloading (a recording not finished whose content is paused does not
  /// record).
  init(_ state: LiveRecordState, downloading: Bool) {
    let journal = state.journal
    let recording = downloading && state.finished == nil
    self.init(
      recordedSeconds: journal.recordedSeconds, recordedSegments: journal.recorded.count,
      gaps: journal.ledger.gaps.map { gap in
        Gap(
          firstSequence: gap.sequences.lowerBound, lastSequence: gap.sequences.upperBound,
          reason: Gap.Reason(gap.reason))
      }, isRecording: recording,
      liveEdgeDelay: recording ? journal.asked.values.reduce(0, +) : nil,
      finishReason: state.finished?.rawValue)
  }

  /// The summary of the live recording in `folder` (HLS, its variant's under `video/` when
  /// recorded with renditions, or DASH: `live-dash.json`), nil when the folder holds none.
  /// The journal is all it needs: for HLS `live.log`, the segments' entries, is not read;
  /// for DASH `live-dash-summary.json` is (``DASHLiveState/SummaryFile``), not
  /// `live-dash.json`, so a snapshot of a long recording costs what that of a short one
  /// does.
  init?(folder: URL, downloading: Bool) {
    if let state = LiveRecordState.readMain(in: folder, replayingLog: false) {
      self.init(state, downloading: downloading)
    } else if let state = DASHLiveState.Summary.read(in: folder) {
      self.init(state, downloading: downloading)
    } else {
      return nil
    }
  }
}

extension LiveRecordingSummary.Gap.Reason {
  /// The public reason of a ledger's `reason`.
  init(_ reason: LiveGap.Reason) {
    switch reason {
    case .fellOutOfWindow: self = .fellOutOfWindow
    case .failedAfterRetries: self = .failedAfterRetries
    case .notRunning: self = .notRunning
    }
  }
}
