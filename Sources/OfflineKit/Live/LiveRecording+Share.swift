extension LiveRecording {
  /// Whether the recording may ask for no more segments: the seconds recorded and those
  /// asked for (in flight) reach ``Configuration/recordFor``. False without a limit.
  ///
  /// The share rule, the same for a live HLS playlist, each track of a live DASH
  /// presentation, and each part of a split recording (`offline get --split` and the
  /// queue's parts): a segment is asked for while the seconds recorded plus those asked
  /// stay below the limit, so the segment that reaches or crosses it is asked (a recording
  /// ends at a segment boundary, as a player cuts) and none after it, however many the
  /// window lists at once (a `--from-start` backlog, a part seeded behind the live edge).
  /// A recording lasts its limit or more, and less than its limit plus one segment. A
  /// segment that fails once the share is spent is a gap of this recording, which is not
  /// topped up; the segments not asked for are not gaps: ``LiveJournal/nextSequence`` stays
  /// at the first of them, where the next part starts.
  var isShareSpent: Bool {
    guard let limit = configuration.recordFor else { return false }
    return journal.recordedSeconds + journal.asked.values.reduce(0, +) >= limit
  }

  /// The share is spent: the recording finishes with ``FinishReason/durationReached`` once
  /// the segments asked for are settled, asking for nothing more and not reloading.
  mutating func finishForShare() -> [Action] {
    switch phase {
    case .starting, .resuming, .recording: phase = .draining(.durationReached)
    case .draining, .finished, .failed: return []
    }
    return finishIfDrained()
  }
}
