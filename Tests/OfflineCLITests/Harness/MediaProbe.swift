import Foundation
import TestSupport

/// What ffprobe says of an exported file, and the order of an MP4's top-level boxes: what
/// the export tests check of a file a user would open.
struct MediaProbe: Decodable {
  struct Stream: Decodable {
    var codec_type: String
    var codec_name: String?
    /// The stream's tags (`language`), when it has any.
    var tags: [String: String]? = nil
  }

  struct Format: Decodable {
    var format_name: String
    var duration: String?
  }

  var streams: [Stream]
  var format: Format

  /// The kinds of the streams, in file order (`video`, `audio`).
  var kinds: [String] { streams.map(\.codec_type) }
  /// The duration the container states, in seconds.
  var duration: Double { Double(format.duration ?? "") ?? 0 }

  /// Probes the file at `path`.
  static func of(_ path: String) async throws -> MediaProbe {
    let output = try await ProcessRunner.checked(
      FFmpeg.ffprobePath ?? "ffprobe",
      ["-v", "error", "-show_streams", "-show_format", "-of", "json", path], timeout: 60)
    return try JSONDecoder().decode(MediaProbe.self, from: output.stdout)
  }

  /// The types of the top-level boxes of the ISO BMFF file at `path`, in file order.
  static func topLevelBoxes(_ path: String) throws -> [String] {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let size = try handle.seekToEnd()
    var boxes: [String] = []
    var offset: UInt64 = 0
    while offset + 8 <= size {
      try handle.seek(toOffset: offset)
      let header = try handle.read(upToCount: 16) ?? Data()
      guard header.count >= 8 else { break }
      var length = header.prefix(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      boxes.append(String(decoding: header[4..<8], as: UTF8.self))
      if length == 1, header.count >= 16 {
        length = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      }
      guard length >= 8 else { break }
      offset += length
    }
    return boxes
  }
}
