import DASHManifest
import Foundation

extension DASHLiveRun {
  /// Follows the Periods of `mpd`, a fresh MPD: each track's Period is found again by its
  /// key (earlier Periods leave a live MPD, so indices move), and every Period after the
  /// latest one recorded gets tracks of its own (the Representations ``choose`` picks),
  /// recorded from its first available segment. When none of the recorded Periods is left,
  /// the MPD's last Period is the one that follows.
  ///
  /// - Returns: Whether each track's Period is in `mpd`.
  /// - Throws: ``Transfer/Error`` `invalidMedia` when a new Period has nothing to record.
  mutating func followPeriods(of mpd: MPD) throws(Transfer.Error) -> [Bool] {
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
    guard !keys.isEmpty else { return present }
    let following = latest.map { Array(($0 + 1)..<keys.count) } ?? [keys.count - 1]
    for period in following {
      state.remember(mpd, period: period)
      let ordinal = state.recordedPeriodKeys.count
      for path in try choose(mpd, period) {
        state.tracks.append(DASHLiveState.Track(path, periodKey: keys[period], ordinal: ordinal))
        recordings.append(LiveRecording(configuration: followingConfiguration))
        windows.append(nil)
        present.append(true)
      }
    }
    return present
  }
}
