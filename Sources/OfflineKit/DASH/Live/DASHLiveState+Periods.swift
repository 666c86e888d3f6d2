import DASHManifest
import Foundation

extension DASHLiveState {
  /// What names Period `index` of `mpd` in every update of a live MPD: its `@id`, else its
  /// start, else its index.
  static func periodKey(_ mpd: MPD, at index: Int) -> String {
    if let id = mpd.periods[index].id { return "id:" + id }
    if let start = mpd.periodStart(at: index) { return "start:\(start)" }
    return "index:\(index)"
  }

  /// `mpd` with Period `index` alone, its start and duration (when known) written out.
  static func singlePeriod(of mpd: MPD, at index: Int) -> MPD {
    var single = mpd
    var period = mpd.periods[index]
    period.start = mpd.periodStart(at: index)
    period.duration = mpd.periodDuration(at: index)
    single.periods = [period]
    return single
  }

  /// Keeps Period `index` of `mpd` (once: the first time it is seen) for the offline MPD.
  mutating func remember(_ mpd: MPD, period index: Int) {
    let key = Self.periodKey(mpd, at: index)
    var manifests = periodManifests ?? [:]
    guard manifests[key] == nil else { return }
    manifests[key] = MPDWriter.write(Self.singlePeriod(of: mpd, at: index))
    periodManifests = manifests
  }

  /// The Period keys of the tracks, each once, in the order the Periods were first seen.
  var recordedPeriodKeys: [String?] {
    var keys: [String?] = []
    for track in tracks where !keys.contains(track.periodKey) { keys.append(track.periodKey) }
    return keys
  }

  /// The seconds recorded: per Period, its shortest track's, summed.
  var recordedSeconds: Double {
    recordedPeriodKeys.reduce(0) { sum, key in
      sum
        + (tracks.filter { $0.periodKey == key }.map(\.journal.recordedSeconds).min() ?? 0)
    }
  }

  /// The offline MPD of what is on disk: `static`, every recorded Period in order, each
  /// lasting from its first recorded segment to the end of its last (gaps included) of its
  /// shortest track and starting where the one before it ends; a Period that plays nothing
  /// yet is left out. A Period is described as its MPD described it when first seen (or as
  /// `mpd`, the last one that answered, describes it in a state without Period keys); nil
  /// while nothing plays.
  func offlineManifest(from mpd: MPD) -> MPD? {
    var result: MPD?
    var periods: [Period] = []
    var offset = 0.0
    for key in recordedPeriodKeys {
      guard let (source, files, seconds) = recorded(key, from: mpd),
        let made = try? OfflineManifest.make(from: source, files: files),
        var period = made.periods.first
      else { continue }
      period.start = offset
      period.duration = seconds
      periods.append(period)
      offset += seconds
      result = result ?? made
    }
    guard var result, !periods.isEmpty else { return nil }
    result.periods = periods
    result.live = LiveTiming()
    result.mediaPresentationDuration = offset
    return result
  }

  /// The MPD describing Period `key`, its tracks' files by path in it and the seconds it
  /// plays; nil when one of its tracks has nothing on disk.
  private func recorded(_ key: String?, from mpd: MPD) -> (
    MPD, [RepresentationPath: OfflineRepresentation], Double
  )? {
    let kept = key.flatMap { periodManifests?[$0] }.flatMap { try? MPDParser.parse(Data($0.utf8)) }
    var files: [RepresentationPath: OfflineRepresentation] = [:]
    var seconds = Double.infinity
    for track in tracks where track.periodKey == key {
      guard let offline = track.offline, let first = offline.segments.first?.time,
        let last = offline.segments.last,
        let end = last.time.flatMap({ time in last.duration.map { time + $0 } })
      else { return nil }
      var path = track.path
      if kept != nil { path.period = 0 }
      files[path] = offline
      seconds = min(seconds, Double(end - first) / Double(max(offline.timescale, 1)))
    }
    guard !files.isEmpty, seconds.isFinite else { return nil }
    return (kept ?? mpd, files, seconds)
  }
}
