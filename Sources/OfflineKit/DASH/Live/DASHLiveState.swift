import DASHManifest
import Foundation

/// What a live DASH recording has settled, per chosen Representation, as `live-dash.json`
/// in the content's folder: each track's ``LiveJournal`` (numbers recorded and the gap
/// ledger) and where each recorded segment is, so the offline MPD can be written again from
/// it alone and the same command goes on from it after a kill. While it records, the
/// segments of each event go to `live-dash.log` (``DASHLiveStateWriter``), so what an event
/// writes does not grow with the recording.
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
    /// Its Period, AdaptationSet and Representation indices (the Period's index in the
    /// last MPD that listed it: earlier Periods leave a live MPD).
    var period: Int
    /// The key of its Period (``DASHLiveState/periodKey(_:at:)``), which names it in
    /// every MPD update; nil in a state written before Periods were followed.
    var periodKey: String?
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
    /// The `@presentationTimeOffset` of its segments, in ``timescale`` units: a segment of
    /// media time `t` is presented `(t - presentationTimeOffset) / timescale` seconds into its
    /// Period (ISO/IEC 23009-1 5.3.9); nil (0) in an older state.
    var presentationTimeOffset: Int64?

    /// Its path in the MPD.
    var path: RepresentationPath {
      RepresentationPath(
        period: period, adaptationSet: adaptationSet, representation: representation)
    }

    /// The folder of its files in the content's folder, named by the Period's place in the
    /// recording (an index in the MPD moves); nil in an older state.
    var folder: String?

    /// Where its files go: ``folder``, or its path's folder in an older state.
    var localFolder: String { folder ?? DASHPlanner.folder(for: path) }

    /// A track that has recorded nothing, for `path` in the Period keyed `periodKey`, the
    /// recording's Period number `ordinal` (from 0).
    init(_ path: RepresentationPath, periodKey: String? = nil, ordinal: Int? = nil) {
      period = path.period
      adaptationSet = path.adaptationSet
      representation = path.representation
      self.periodKey = periodKey
      folder = ordinal.map { number in
        var place = path
        place.period = number
        return DASHPlanner.folder(for: place)
      }
    }

    /// Seconds into its Period at which the segment of media time `time` is presented:
    /// `(time - presentationTimeOffset) / timescale`, worked out in integers first so that a
    /// large offset (media times since the epoch) loses no precision.
    func presentationSeconds(_ time: UInt64) -> Double {
      let (media, overflow) = Int64(clamping: time).subtractingReportingOverflow(
        presentationTimeOffset ?? 0)
      let units = overflow ? Double(time) - Double(presentationTimeOffset ?? 0) : Double(media)
      return units / Double(max(timescale, 1))
    }

    /// Its files on disk, for `OfflineManifest`: the recorded segments in number order, the
    /// offline Period starting `start` seconds into the live Period (its tracks' earliest
    /// recorded presentation time; this track's first segment when nil), so every track of
    /// the Period keeps its place beside the others; nil before its init section and a
    /// segment are on disk.
    func offline(periodStart start: Double? = nil) -> OfflineRepresentation? {
      guard let initialization else { return nil }
      let recorded = segments.keys.sorted().filter { journal.recorded.contains($0) }
      guard let first = recorded.first.flatMap({ segments[$0] }) else { return nil }
      let late = start.map { max(presentationSeconds(first.time) - $0, 0) } ?? 0
      let offset = Int64(clamping: first.time) - Int64((late * Double(timescale)).rounded())
      return OfflineRepresentation(
        initialization: initialization,
        segments: recorded.compactMap { segments[$0] }.map {
          OfflineRepresentation.Segment(name: $0.local, time: $0.time, duration: $0.duration)
        }, timescale: timescale, presentationTimeOffset: offset)
    }
  }

  /// The manifest's URL.
  var manifestURL: URL
  /// The chosen Representations, in the order chosen.
  var tracks: [Track]
  /// Why the recording finished; nil while it records or after a kill.
  var finished: LiveRecording.FinishReason?
  /// Each recorded Period as an MPD of that Period alone (its text, by Period key), as the
  /// last MPD that listed it described it, so the offline MPD lists it after it left the
  /// live MPD.
  var periodManifests: [String: String]?
  /// The Periods that left the MPD with nothing of them recorded, in the order found.
  var missedPeriods: [MissedPeriod]?

  /// Whether the same command goes on with it: it did not finish, or the user stopped it.
  var goesOn: Bool { finished == nil || finished == .stopped }
}
