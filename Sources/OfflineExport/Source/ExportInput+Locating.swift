import DASHManifest
import Foundation
import HLSPlaylist

extension ExportInput {
  /// Finds the manifest of an offline copy: `url` itself when it is a playlist or MPD file,
  /// else the folder's `index.m3u8` or `index.mpd`, and reads what the export needs from it.
  static func locate(_ url: URL) throws(ExportError) -> ExportInput {
    let path = url.path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw .sourceNotFound(path: path)
    }
    if isFolder.boolValue {
      for (name, kind) in [("index.m3u8", Kind.hls), ("index.mpd", .dash)] {
        let manifest = url.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: manifest.path) {
          return try read(manifest, kind: kind)
        }
      }
      throw .notAStream(path: path)
    }
    switch url.pathExtension.lowercased() {
    case "m3u8": return try read(url, kind: .hls)
    case "mpd": return try read(url, kind: .dash)
    default: throw .notAStream(path: path)
    }
  }

  private static func read(_ manifest: URL, kind: Kind) throws(ExportError) -> ExportInput {
    switch kind {
    case .hls: try readHLS(manifest)
    case .dash: try readDASH(manifest)
    }
  }

  private static func text(of url: URL) throws(ExportError) -> String {
    guard let data = FileManager.default.contents(atPath: url.path),
      let text = String(data: data, encoding: .utf8)
    else { throw .notAStream(path: url.path) }
    return text
  }

  private static func readHLS(_ manifest: URL) throws(ExportError) -> ExportInput {
    let playlist: Playlist
    do { playlist = try PlaylistParser.parse(try text(of: manifest)) } catch {
      throw .notAStream(path: manifest.path)
    }
    switch playlist {
    case .media(let media):
      let timing = Timing(media)
      guard timing.duration > 0 else { throw .notAStream(path: manifest.path) }
      return ExportInput(
        kind: .hls, manifest: manifest, duration: timing.duration,
        segmentDuration: timing.segmentDuration, renditions: [])
    case .master(let master):
      let folder = manifest.deletingLastPathComponent()
      let uris = master.variants.map(\.uri) + master.renditions.compactMap(\.uri)
      var duration = 0.0
      var segmentDuration = 0.0
      for uri in uris {
        guard
          case .media(let media)? = try? PlaylistParser.parse(
            try text(of: URL(fileURLWithPath: uri, relativeTo: folder)))
        else { throw .notAStream(path: folder.appendingPathComponent(uri).path) }
        let timing = Timing(media)
        duration = max(duration, timing.duration)
        segmentDuration = max(segmentDuration, timing.segmentDuration)
      }
      guard duration > 0 else { throw .notAStream(path: manifest.path) }
      let renditions = master.renditions.compactMap { rendition in
        rendition.uri.map {
          Rendition(
            type: rendition.type, language: rendition.language, isDefault: rendition.isDefault,
            playlist: URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL)
        }
      }
      return ExportInput(
        kind: .hls, manifest: manifest, duration: duration, segmentDuration: segmentDuration,
        renditions: renditions)
    }
  }

  private static func readDASH(_ manifest: URL) throws(ExportError) -> ExportInput {
    let mpd: MPD
    do { mpd = try MPDParser.parse(try text(of: manifest)) } catch {
      throw .notAStream(path: manifest.path)
    }
    let periods = mpd.periods.indices.compactMap { mpd.periodDuration(at: $0) }
    let duration = mpd.mediaPresentationDuration ?? periods.reduce(0, +)
    guard duration > 0 else { throw .notAStream(path: manifest.path) }
    return ExportInput(
      kind: .dash, manifest: manifest, duration: duration,
      segmentDuration: mpd.maxSegmentDuration ?? 10, renditions: [],
      periodCount: max(mpd.periods.count, 1))
  }
}

/// A media playlist's total and longest segment durations.
private struct Timing {
  var duration: Double
  var segmentDuration: Double

  init(_ media: MediaPlaylist) {
    duration = media.segments.reduce(0) { $0 + $1.duration }
    segmentDuration = max(
      Double(media.targetDuration), media.segments.map(\.duration).max() ?? 0)
  }
}
