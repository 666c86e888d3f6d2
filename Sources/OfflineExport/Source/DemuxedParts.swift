import DASHManifest
import Foundation

/// What the demuxer opens for an offline copy, one after the other: its manifest, or for a
/// DASH MPD with several Periods one MPD per Period. libavformat 5.1's DASH demuxer reads one
/// Period of an MPD (the longest), so each Period is handed to it alone, in order, and the
/// remuxer puts them on one timeline (``TimelineStitcher``) as it does HLS discontinuities.
///
/// A Period's MPD is the offline one cut to that Period (starting at zero, lasting the
/// Period's duration) with an absolute `BaseURL` to the offline folder, so that its relative
/// segment names still lead there; it is written in a private temporary folder, removed when
/// this object goes. The offline folder is never written to.
final class DemuxedParts {
  /// The paths to open, in order.
  let paths: [String]
  private let folder: URL?

  /// The parts of `source`: its manifest alone, unless it is an MPD with several Periods.
  init(_ source: ExportInput) throws(ExportError) {
    guard source.kind == .dash, source.periodCount > 1 else {
      paths = [source.manifest.path]
      folder = nil
      return
    }
    let mpd: MPD
    do {
      mpd = try MPDParser.parse(try Data(contentsOf: source.manifest))
    } catch {
      throw .notAStream(path: source.manifest.path)
    }
    let base = Self.baseURL(of: mpd, manifest: source.manifest)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "offline-export-periods-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    } catch {
      throw .fileSystem(operation: "create", path: folder.path, errno: EIO)
    }
    self.folder = folder
    var paths: [String] = []
    for index in mpd.periods.indices {
      let part = folder.appendingPathComponent("period\(index).mpd")
      do {
        try MPDWriter.write(Self.alone(index, of: mpd, base: base))
          .write(to: part, atomically: false, encoding: .utf8)
      } catch {
        try? FileManager.default.removeItem(at: folder)
        throw .fileSystem(operation: "write", path: part.path, errno: EIO)
      }
      paths.append(part.path)
    }
    self.paths = paths
  }

  deinit {
    if let folder { try? FileManager.default.removeItem(at: folder) }
  }

  /// Period `index` of `mpd` as a presentation of its own, its segments found under `base`.
  static func alone(_ index: Int, of mpd: MPD, base: String) -> MPD {
    var single = mpd
    single.periods = [mpd.periods[index]]
    single.periods[0].start = 0
    single.periods[0].duration = nil
    single.mediaPresentationDuration = mpd.periodDuration(at: index)
    single.baseURLs = [base]
    return single
  }

  /// The absolute base of the MPD's relative URLs: its own first `BaseURL` resolved against
  /// its folder, else its folder, as a path ending in `/`.
  static func baseURL(of mpd: MPD, manifest: URL) -> String {
    let folder = manifest.deletingLastPathComponent().standardizedFileURL
    guard let own = mpd.baseURLs.first else { return folder.path + "/" }
    if own.contains("://") { return own }
    let resolved = URL(fileURLWithPath: own, relativeTo: folder).standardizedFileURL.path
    return resolved.hasSuffix("/") ? resolved : resolved + "/"
  }
}
