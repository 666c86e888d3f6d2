import Foundation
import HLSPlaylist

/// An HLS offline copy of fragmented MP4 segments as plain files a reader of MP4 opens: each
/// media playlist (the variant, then each audio rendition) as its `EXT-X-MAP` init section
/// followed by its segments, byte ranges read from packs, in one fragmented MP4 file in a
/// private temporary folder, removed when this object goes.
///
/// This is what the AVFoundation side of the export reads (AVFoundation opens no local HLS
/// playlist, and reads no MPEG-TS file). It refuses what a plain join would get wrong: MPEG-TS
/// segments, encrypted segments, discontinuities (their timestamps would go back inside one
/// file), and DASH.
final class JoinedTracks {
  /// One joined media playlist.
  struct File: Sendable, Equatable {
    /// The fragmented MP4 file.
    var url: URL
    /// The rendition's `LANGUAGE`, nil for the variant.
    var language: String?
    /// The rendition's `DEFAULT=YES`; true for the variant.
    var isDefault: Bool
  }

  /// The joined files: the variant's first.
  let files: [File]
  private let folder: URL

  /// Joins the media playlists of `source`.
  init(_ source: ExportInput) throws(ExportError) {
    guard source.kind == .hls else {
      throw .unsupportedSource(
        path: source.manifest.path, reason: "AVFoundation exports HLS copies only here, not DASH")
    }
    var playlists: [(URL, String?, Bool)] = []
    if source.renditions.isEmpty && Self.isMedia(source.manifest) {
      playlists = [(source.manifest, nil, true)]
    } else {
      guard let variant = Self.firstVariant(of: source.manifest) else {
        throw .notAStream(path: source.manifest.path)
      }
      playlists = [(variant, nil, true)]
      for rendition in source.renditions where rendition.type == .audio {
        if let playlist = rendition.playlist {
          playlists.append((playlist, rendition.language, rendition.isDefault))
        }
      }
    }
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "offline-export-joined-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    } catch {
      throw .fileSystem(operation: "create", path: folder.path, errno: EIO)
    }
    var files: [File] = []
    do throws(ExportError) {
      for (number, (playlist, language, isDefault)) in playlists.enumerated() {
        let url = folder.appendingPathComponent("track\(number).mp4")
        try Self.join(playlist, into: url)
        files.append(File(url: url, language: language, isDefault: isDefault))
      }
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
    self.files = files
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  private static func parse(_ url: URL) -> Playlist? {
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    return try? PlaylistParser.parse(String(decoding: data, as: UTF8.self))
  }

  private static func isMedia(_ url: URL) -> Bool {
    if case .media? = parse(url) { return true }
    return false
  }

  private static func firstVariant(of url: URL) -> URL? {
    guard case .master(let master)? = parse(url), let variant = master.variants.first else {
      return nil
    }
    return URL(fileURLWithPath: variant.uri, relativeTo: url.deletingLastPathComponent())
      .standardizedFileURL
  }

  /// Writes the init section and every segment of the media playlist at `playlist` into
  /// `file`, one segment in memory at a time.
  static func join(_ playlist: URL, into file: URL) throws(ExportError) {
    guard case .media(let media)? = parse(playlist) else { throw .notAStream(path: playlist.path) }
    let folder = playlist.deletingLastPathComponent()
    func refuse(_ reason: String) -> ExportError {
      .unsupportedSource(path: playlist.path, reason: reason)
    }
    guard let map = media.segments.first?.map else {
      throw refuse("its segments are not fragmented MP4 (no EXT-X-MAP), which AVFoundation reads")
    }
    if media.segments.contains(where: { !$0.keys.isEmpty }) {
      throw refuse("its segments are encrypted")
    }
    if media.segments.dropFirst().contains(where: { $0.discontinuity || $0.map != map }) {
      throw refuse("it has discontinuities or more than one init section")
    }
    guard FileManager.default.createFile(atPath: file.path, contents: nil),
      let output = FileHandle(forWritingAtPath: file.path)
    else { throw .fileSystem(operation: "create", path: file.path, errno: EIO) }
    defer { try? output.close() }
    let parts = [(map.uri, map.byteRange)] + media.segments.map { ($0.uri, $0.byteRange) }
    for (uri, range) in parts {
      let source = URL(fileURLWithPath: uri, relativeTo: folder).standardizedFileURL
      do {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        let bytes: Data?
        if let range {
          try input.seek(toOffset: UInt64(range.offset))
          bytes = try input.read(upToCount: Int(range.length))
        } else {
          bytes = try input.readToEnd()
        }
        try output.write(contentsOf: bytes ?? Data())
      } catch {
        throw .fileSystem(operation: "read", path: source.path, errno: EIO)
      }
    }
  }
}
