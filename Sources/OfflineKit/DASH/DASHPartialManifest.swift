import DASHManifest
import Foundation

/// The MPD a player opens while a DASH download runs or is suspended, restricted to what is
/// on disk (`index-partial.mpd`): a value with no I/O (``DASHGrowingWriter`` writes it).
///
/// It is a `static` MPD, as the finished one, cut where the disk ends: every Period whose
/// chosen Representations are all on disk, then the first Period that is not, with each
/// Representation's segments up to its first one not on disk (and none without its init
/// section) and the Period's duration that of the shortest of them; no Period after it. A
/// player reads a static MPD once and plays it to its end, so the download rewrites it as
/// pieces land (at most once a second) and a player opens it again to play on: ffmpeg and
/// mpv have no reload of a static MPD, and a `dynamic` one would need an availability
/// timeline that a download does not have. Once every piece is on disk it is the
/// ordinary offline MPD.
enum DASHPartialManifest {
  /// Its name in the content's folder.
  static let fileName = PlaybackEntryNames.partialManifest

  /// The offline MPD of `mpd` for `files`, cut where the pieces `landed` (their paths in
  /// the content's folder) end; nil when nothing plays yet.
  static func make(
    from mpd: MPD, files: [RepresentationPath: OfflineRepresentation], landed: Set<String>
  ) -> MPD? {
    var kept: [RepresentationPath: OfflineRepresentation] = [:]
    var cut: (period: Int, seconds: Double)?
    for period in Set(files.keys.map(\.period)).sorted() {
      let paths = files.keys.filter { $0.period == period }
      var shortest = Double.infinity
      var whole = true
      for path in paths {
        guard var representation = files[path] else { continue }
        let prefix = onDisk(representation, landed: landed)
        whole = whole && prefix == representation.segments.count
        representation.segments = Array(representation.segments.prefix(prefix))
        shortest = min(shortest, seconds(of: representation))
        kept[path] = representation
      }
      if !whole {
        cut = (period, shortest)
        break
      }
    }
    guard let cut else { return try? OfflineManifest.make(from: mpd, files: files) }
    guard cut.seconds > 0 else {
      // Nothing of the cut Period plays: the Periods before it, if any.
      let before = kept.filter { $0.key.period < cut.period }
      guard !before.isEmpty, var offline = try? OfflineManifest.make(from: mpd, files: before)
      else { return nil }
      offline.mediaPresentationDuration = mpd.periodStart(at: cut.period)
      return offline
    }
    guard var offline = try? OfflineManifest.make(from: mpd, files: kept), !offline.periods.isEmpty
    else { return nil }
    let last = offline.periods.count - 1
    offline.periods[last].duration = cut.seconds
    offline.mediaPresentationDuration = (offline.periods[last].start ?? 0) + cut.seconds
    return offline
  }

  /// How many of `representation`'s segments are on disk from the first without a gap
  /// (none when its init section is not).
  private static func onDisk(_ representation: OfflineRepresentation, landed: Set<String>) -> Int {
    if let initialization = representation.initialization, !landed.contains(initialization) {
      return 0
    }
    return representation.segments.firstIndex { !landed.contains($0.name) }
      ?? representation.segments.count
  }

  /// The seconds of media in `representation`'s segments (0 when a duration is unknown: a
  /// cut that cannot be timed plays nothing of its Period).
  private static func seconds(of representation: OfflineRepresentation) -> Double {
    var units: UInt64 = 0
    for segment in representation.segments {
      guard let duration = segment.duration else { return 0 }
      units += duration
    }
    return Double(units) / Double(max(representation.timescale, 1))
  }
}

/// The growing MPD of a DASH download (``DASHPartialManifest``) as ``GrowingWriter`` writes
/// it: `index-partial.mpd`, cut where the disk ends, the ordinary offline MPD once complete.
struct DASHGrowingManifest: GrowingFiles {
  let mpd: MPD
  let plan: DASHPlan

  var entry: String { DASHPartialManifest.fileName }

  /// The MPD for `landing`, or none while nothing plays (a static MPD says nothing of a
  /// run that stopped: `ended` changes nothing).
  func files(for landing: PieceLanding, ended: Bool) -> [GrowingFile] {
    guard
      let partial = DASHPartialManifest.make(from: mpd, files: plan.files, landed: landing.landed)
    else { return [] }
    return [GrowingFile(local: entry, text: MPDWriter.write(partial))]
  }

  var complete: Set<String> { Set(plan.pieces.map(\.local)) }

  /// None: `index-through.mpd` is written by the download itself.
  var unchanging: Set<String> { [] }
}
