import Foundation

/// The segments an offline media playlist on disk points at, read as a player reads them:
/// a URI line is a file beside the playlist, or the `EXT-X-BYTERANGE` of it given just
/// before (small segments share a pack file, addressed by range).
public enum OfflineSegments {
  /// One segment: its file (absolute) and, for a range of it, where and how long.
  public struct Segment: Sendable, Equatable {
    /// The file's absolute path.
    public var file: String
    /// The bytes of the file that are the segment; nil for the whole file.
    public var range: Range<Int>?
  }

  /// The segments of the media playlist at `playlist`, in order.
  public static func list(_ playlist: URL) throws -> [Segment] {
    let folder = playlist.deletingLastPathComponent()
    let text = try String(contentsOf: playlist, encoding: .utf8)
    var segments: [Segment] = []
    var pending: (length: Int, offset: Int)?
    for line in text.split(separator: "\n") {
      if line.hasPrefix("#EXT-X-BYTERANGE:") {
        let value = line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@")
        guard value.count == 2, let length = Int(value[0]), let offset = Int(value[1]) else {
          throw TestSupportError.unexpectedOutput(command: playlist.path, output: String(line))
        }
        pending = (length, offset)
      } else if !line.hasPrefix("#"), !line.isEmpty {
        segments.append(
          Segment(
            file: folder.appending(path: String(line)).path,
            range: pending.map { $0.offset..<$0.offset + $0.length }))
        pending = nil
      }
    }
    return segments
  }

  /// The bytes of every segment of the media playlist at `playlist`, in order; empty data
  /// for a segment whose file is missing or too short.
  public static func bytes(_ playlist: URL) throws -> [Data] {
    try list(playlist).map { segment in
      guard let data = FileManager.default.contents(atPath: segment.file) else { return Data() }
      guard let range = segment.range else { return data }
      return range.upperBound <= data.count ? data.subdata(in: range) : Data()
    }
  }
}
