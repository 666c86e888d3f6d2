import Foundation

extension DASHLiveState {
  /// The part of `live-dash.json` a snapshot's live summary needs: why it finished, and each
  /// track's Period key and journal. Decoding it leaves out what grows with every segment
  /// (each track's `segments`, its `$Time$` numbering) and the Periods' MPD texts, so a
  /// snapshot of a long recording decodes no more entries than that of a short one.
  struct Summary: Sendable, Equatable, Codable {
    /// A track's Period and what it settled.
    struct Track: Sendable, Equatable, Codable {
      var periodKey: String?
      var journal: LiveJournal
    }

    var finished: LiveRecording.FinishReason?
    var tracks: [Track]
    var missedPeriods: [MissedPeriod]?

    /// The summary part of `state`.
    init(_ state: DASHLiveState) {
      finished = state.finished
      tracks = state.tracks.map { Track(periodKey: $0.periodKey, journal: $0.journal) }
      missedPeriods = state.missedPeriods
    }

    /// The Period keys of the tracks, each once, in the order the Periods were first seen.
    var periodKeys: [String?] {
      var keys: [String?] = []
      for track in tracks where !keys.contains(track.periodKey) { keys.append(track.periodKey) }
      return keys
    }

    /// Per Period, the least of `value` over its tracks, summed.
    func sumOfShortest<Value: Numeric & Comparable>(_ value: (LiveJournal) -> Value) -> Value {
      periodKeys.reduce(0) { sum, key in
        sum + (tracks.filter { $0.periodKey == key }.map { value($0.journal) }.min() ?? 0)
      }
    }
  }
}
