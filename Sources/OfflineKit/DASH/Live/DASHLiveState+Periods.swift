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

  /// Keeps Period `index` of `mpd` as it is now, for the offline MPD and for where the
  /// Period ends once it left the MPD.
  mutating func remember(_ mpd: MPD, period index: Int) {
    var manifests = periodManifests ?? [:]
    manifests[Self.periodKey(mpd, at: index)] = MPDWriter.write(
      Self.singlePeriod(of: mpd, at: index))
    periodManifests = manifests
  }

  /// The `$Number$` of the last segment of the Period of `track`, from the Period as last
  /// seen; when its end was not known then (the recorder was down when the next Period
  /// began), it ends by `laterStart`, the start of a Period that began after it. Nil when
  /// neither says where it ends, or its segments are numbered by time.
  func lastNumber(of track: Track, endingBy laterStart: Double?) -> Int? {
    guard track.timeNumbering == nil,
      let text = track.periodKey.flatMap({ periodManifests?[$0] }),
      var kept = try? MPDParser.parse(Data(text.utf8)), kept.periods.count == 1,
      let duration = kept.periods[0].duration
        ?? laterStart.flatMap({ end in kept.periods[0].start.map { end - $0 } }),
      duration > 0
    else { return nil }
    kept.periods[0].duration = duration
    kept.type = .static
    kept.mediaPresentationDuration = (kept.periods[0].start ?? 0) + duration
    var path = track.path
    path.period = 0
    guard
      let listing = try? SegmentResolver().segments(
        for: path, in: kept, manifestURL: manifestURL),
      let last = listing.segments.compactMap(\.number).max(), last <= UInt64(Int.max)
    else { return nil }
    return Int(last)
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
      let start = presentationStart(of: key)
      guard let (source, files, seconds) = recorded(key, from: mpd, start: start),
        let made = try? OfflineManifest.make(from: source, files: files),
        var period = made.periods.first
      else { continue }
      let kept = periodManifests?[key ?? ""] != nil
      DASHLiveTimeTemplate.apply(
        to: &period, from: source, start: start,
        tracks: tracks.filter { $0.periodKey == key }.map { track in
          var path = track.path
          if kept { path.period = 0 }
          return (path, track)
        })
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

  /// When the first recorded segment of Period `key`'s tracks is presented, in seconds
  /// into the live Period (each track's `@presentationTimeOffset` taken off); nil while one
  /// has none.
  private func presentationStart(of key: String?) -> Double? {
    var start: Double?
    for track in tracks where track.periodKey == key {
      guard let number = track.journal.recorded.first, let first = track.segments[number]
      else { return nil }
      start = min(start ?? .infinity, track.presentationSeconds(first.time))
    }
    return start
  }

  /// The MPD describing Period `key`, its tracks' files by path in it (the offline Period
  /// starting `start` seconds into the live one) and the seconds it plays: up to the
  /// earliest presentation end of its tracks' last segments. Nil when one of its tracks has
  /// nothing on disk.
  private func recorded(_ key: String?, from mpd: MPD, start: Double?) -> (
    MPD, [RepresentationPath: OfflineRepresentation], Double
  )? {
    let kept = key.flatMap { periodManifests?[$0] }.flatMap { try? MPDParser.parse(Data($0.utf8)) }
    var files: [RepresentationPath: OfflineRepresentation] = [:]
    var end = Double.infinity
    for track in tracks where track.periodKey == key {
      guard let start, let offline = track.offline(periodStart: start),
        let last = offline.segments.last,
        let ends = last.time.flatMap({ time in last.duration.map { time + $0 } })
      else { return nil }
      var path = track.path
      if kept != nil { path.period = 0 }
      files[path] = offline
      end = min(end, track.presentationSeconds(ends))
    }
    guard let start, !files.isEmpty, end.isFinite, end > start else { return nil }
    return (kept ?? mpd, files, end - start)
  }
}
