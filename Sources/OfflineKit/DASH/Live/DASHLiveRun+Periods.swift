import DASHManifest
import Foundation

extension DASHLiveRun {
  /// Follows the Periods of `mpd`, a fresh MPD: each track's Period is found again by its
  /// key (earlier Periods leave a live MPD, so indices move), and every Period after the
  /// latest one recorded gets tracks of its own (the Representations ``choose`` picks),
  /// recorded from its first available segment. When none of the recorded Periods is left,
  /// every Period of `mpd` follows them. When the run goes on from an earlier one
  /// (`resumed`), what a following Period's tracks miss before their window is a
  /// `notRunning` gap.
  ///
  /// - Returns: Whether each track's Period is in `mpd`.
  /// - Throws: ``Transfer/Error`` `invalidMedia` when a new Period has nothing to record.
  mutating func followPeriods(of mpd: MPD, resumed: Bool = false) throws(Transfer.Error)
    -> [Bool]
  {
    let keys = mpd.periods.indices.map { DASHLiveState.periodKey(mpd, at: $0) }
    var present: [Bool] = []
    var latest: Int?
    for index in state.tracks.indices {
      guard let key = state.tracks[index].periodKey else {
        present.append(state.tracks[index].period < mpd.periods.count)  // an older state
        latest = max(latest ?? 0, state.tracks[index].period)
        continue
      }
      let period = keys.firstIndex(of: key)
      present.append(period != nil)
      if let period {
        state.tracks[index].period = period
        latest = max(latest ?? 0, period)
      }
    }
    for period in Set(state.tracks.indices.filter { present[$0] }.map { state.tracks[$0].period })
    where state.tracks.contains(where: { $0.periodKey == keys[period] }) {
      state.remember(mpd, period: period)  // its end, once another Period follows
    }
    guard !keys.isEmpty else { return present }
    // Periods leave a live MPD oldest first: when none recorded is left, all are later.
    let following = Array((latest.map { $0 + 1 } ?? 0)..<keys.count)
    for period in following {
      state.remember(mpd, period: period)
      let ordinal = state.recordedPeriodKeys.count
      for path in try choose(mpd, period) {
        var track = DASHLiveState.Track(path, periodKey: keys[period], ordinal: ordinal)
        // Back after a kill or a pause: the Period's segments that went by meanwhile are
        // the downtime's, counted from its first `$Number$`.
        if resumed, let media = mpd.templateMedia(at: path),
          !DASHLiveWindow.isNamedByTime(media), let first = mpd.templateStartNumber(at: path),
          first <= UInt64(Int.max)
        {
          track.journal.firstSequence = Int(first)
          track.journal.nextSequence = Int(first)
        }
        state.tracks.append(track)
        recordings.append(
          LiveRecording(resuming: track.journal, configuration: followingConfiguration))
        windows.append(nil)
        present.append(true)
      }
    }
    return present
  }
}
