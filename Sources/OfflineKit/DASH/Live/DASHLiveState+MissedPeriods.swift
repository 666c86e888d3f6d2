import DASHManifest
import Foundation

extension DASHLiveState {
  /// A Period of a live presentation that left the MPD with nothing of it recorded: the
  /// recorder was down the whole time its segments were in the window (a kill, a pause), or
  /// the window moved past them before any was fetched. Its tracks' numbers, when the
  /// Period numbers its segments, are in their ledgers too; this entry says which Period
  /// and which span of the presentation went missing.
  struct MissedPeriod: Sendable, Equatable, Codable {
    /// The Period's key (``DASHLiveState/periodKey(_:at:)``).
    var key: String
    /// When it starts and ends, in seconds of the presentation (MPD time); nil when the
    /// MPDs the recorder read did not say.
    var start: Double?
    var end: Double?
    /// Why nothing of it was recorded.
    var reason: LiveGap.Reason

    /// The Period's `@id`, nil when it has none.
    var id: String? { key.hasPrefix("id:") ? String(key.dropFirst(3)) : nil }
  }

  /// Notes that the Period keyed `key`, which left the MPD, had nothing recorded: once, with
  /// its span as last seen (it ends by `laterStart`, the start of a Period after it, when
  /// its end was not known then).
  mutating func noteMissed(_ key: String, endingBy laterStart: Double?, reason: LiveGap.Reason) {
    var missed = missedPeriods ?? []
    guard !missed.contains(where: { $0.key == key }) else { return }
    let period = periodManifests?[key].flatMap { try? MPDParser.parse(Data($0.utf8)) }?.periods
      .first
    let start = period?.start
    let end = period?.duration.flatMap { duration in start.map { $0 + duration } } ?? laterStart
    missed.append(MissedPeriod(key: key, start: start, end: end, reason: reason))
    missedPeriods = missed
  }

  /// The first `$Number$` of the Period of `track`, from the Period as last seen; nil when
  /// its segments are numbered by time or it has no template.
  func firstNumber(of track: Track) -> Int? {
    guard track.timeNumbering == nil,
      let mpd = track.periodKey.flatMap({ periodManifests?[$0] }).flatMap({
        try? MPDParser.parse(Data($0.utf8))
      }), mpd.periods.count == 1
    else { return nil }
    var path = track.path
    path.period = 0
    guard let media = mpd.templateMedia(at: path), !DASHLiveWindow.isNamedByTime(media),
      let first = mpd.templateStartNumber(at: path), first <= UInt64(Int.max)
    else { return nil }
    return Int(first)
  }

  /// Whether no track of the Period keyed `key` recorded a segment.
  func recordedNothing(in key: String?) -> Bool {
    tracks.filter { $0.periodKey == key }.allSatisfy { $0.journal.recorded.isEmpty }
  }
}
