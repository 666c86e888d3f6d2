import DASHManifest
import Foundation

/// What a live DASH recording has settled, per chosen Representation, as `live-dash.json`
/// in the content's folder: each track's ``LiveJournal`` (numbers recorded and the gap
/// ledger) and where each recorded segment is, so the offline MPD can be written again from
/// it alone and the same command goes on from it after a kill.
struct DASHLiveState: Sendable, Equatable, Codable {
  /// The file's name in the content's folder.
  static let fileName = "live-dash.json"

  /// One recorded segment: its local file and its timing in the track's timescale.
  struct Segment: Sendable, Equatable, Codable {
    var local: String
    var time: UInt64
    var duration: UInt64
  }

  /// One chosen Representation.
  struct Track: Sendable, Equatable, Codable {
    /// Its Period, AdaptationSet and Representation indices.
    var period: Int
    var adaptationSet: Int
    var representation: Int
    /// The local name of its initialization section, once on disk.
    var initialization: String?
    /// Units per second of the segments' times and durations.
    var timescale: UInt64 = 1
    /// What is settled, by segment number.
    var journal = LiveJournal()
    /// The segments asked for or on disk, by number; those on disk are in the journal's
    /// `recorded`.
    var segments: [Int: Segment] = [:]
    /// The numbers made from the segments' times, when their names use `$Time$` only.
    var timeNumbering: TimeNumbering?

    /// Its path in the MPD.
    var path: RepresentationPath {
      RepresentationPath(
        period: period, adaptationSet: adaptationSet, representation: representation)
    }

    /// A track that has recorded nothing, for `path`.
    init(_ path: RepresentationPath) {
      period = path.period
      adaptationSet = path.adaptationSet
      representation = path.representation
    }

    /// Its files on disk, for `OfflineManifest`: the recorded segments in number order, the
    /// presentation starting at the first one; nil before its init section and a segment
    /// are on disk.
    var offline: OfflineRepresentation? {
      guard let initialization else { return nil }
      let recorded = segments.keys.sorted().filter { journal.recorded.contains($0) }
      guard let first = recorded.first.flatMap({ segments[$0] }) else { return nil }
      return OfflineRepresentation(
        initialization: initialization,
        segments: recorded.compactMap { segments[$0] }.map {
          OfflineRepresentation.Segment(name: $0.local, time: $0.time, duration: $0.duration)
        }, timescale: timescale, presentationTimeOffset: Int64(clamping: first.time))
    }
  }

  /// The manifest's URL.
  var manifestURL: URL
  /// The chosen Representations, in the order chosen.
  var tracks: [Track]
  /// Why the recording finished; nil while it records or after a kill.
  var finished: LiveRecording.FinishReason?

  /// Whether the same command goes on with it: it did not finish, or the user stopped it.
  var goesOn: Bool { finished == nil || finished == .stopped }

  /// The state in `folder`, or nil when there is none or it cannot be read.
  static func read(in folder: URL) -> DASHLiveState? {
    LiveStateFile.read(DASHLiveState.self, named: fileName, in: folder)
  }

  /// Writes it atomically into `folder`.
  func write(in folder: URL) throws(Transfer.Error) {
    try LiveStateFile.write(self, named: Self.fileName, in: folder, url: manifestURL)
  }

  /// The offline MPD of what is on disk, made from `mpd` (the last one that answered):
  /// `static`, lasting from the first recorded segment to the end of the last (gaps
  /// included) of the shortest track; nil while nothing plays.
  func offlineManifest(from mpd: MPD) -> MPD? {
    var files: [RepresentationPath: OfflineRepresentation] = [:]
    var seconds = Double.infinity
    for track in tracks {
      guard let offline = track.offline else { return nil }
      files[track.path] = offline
      guard let first = offline.segments.first?.time, let last = offline.segments.last,
        let end = last.time.flatMap({ time in last.duration.map { time + $0 } })
      else { return nil }
      seconds = min(seconds, Double(end - first) / Double(max(offline.timescale, 1)))
    }
    guard !files.isEmpty, seconds.isFinite,
      var result = try? OfflineManifest.make(from: mpd, files: files)
    else { return nil }
    result.live = LiveTiming()
    result.mediaPresentationDuration = seconds
    for index in result.periods.indices {
      result.periods[index].start = 0
      result.periods[index].duration = seconds
    }
    return result
  }
}
