import Foundation

/// What ffprobe says of a media file or playlist (`-of json`).
struct Probe: Decodable {
  struct Stream: Decodable {
    var codec_type: String
    var codec_name: String?
    var tags: [String: String]?
    var disposition: [String: Int]?

    var language: String? { tags?["language"] }
    var isDefault: Bool { disposition?["default"] == 1 }
  }

  struct Format: Decodable {
    var duration: String?
  }

  var streams: [Stream]
  var format: Format

  /// The duration in seconds the container states.
  var duration: Double { Double(format.duration ?? "") ?? 0 }

  /// Probes `url` (a playlist's keys are allowed to open).
  static func of(_ url: URL) throws -> Probe {
    let data = try Tool.run(
      "ffprobe",
      ["-v", "error"] + playlistOptions(url)
        + ["-show_streams", "-show_format", "-of", "json", url.path])
    return try JSONDecoder().decode(Probe.self, from: data)
  }

  /// The HLS demuxer's option that lets it open keys under `keys/` (it refuses files whose
  /// extension is not a media one), for a playlist only: other demuxers reject it.
  private static func playlistOptions(_ url: URL) -> [String] {
    url.pathExtension == "m3u8" ? ["-allowed_extensions", "ALL"] : []
  }

  /// The MD5 of `url`'s decoded `selector` streams (`v` or `a`), frame by frame as decoded,
  /// without timestamps: equal only when every picture or sample is.
  static func decodedMD5(_ url: URL, _ selector: String) throws -> String {
    let data = try Tool.run(
      "ffmpeg",
      ["-v", "error"] + playlistOptions(url) + [
        "-i", url.path, "-map", "0:\(selector)",
        "-fps_mode", "passthrough", "-f", "md5", "-",
      ])
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

extension Probe {
  /// How many audio samples (per channel) `url`'s first audio stream decodes to.
  static func decodedSamples(_ url: URL) throws -> Int {
    let data = try Tool.run(
      "ffmpeg",
      ["-v", "error"] + (url.pathExtension == "m3u8" ? ["-allowed_extensions", "ALL"] : [])
        + ["-i", url.path, "-map", "0:a:0", "-ac", "1", "-f", "s16le", "-"])
    return data.count / 2
  }
}

/// The types of an ISO BMFF (MP4) file's top-level boxes, in file order.
func topLevelBoxes(of url: URL) throws -> [String] {
  let handle = try FileHandle(forReadingFrom: url)
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
    } else if length == 0 {
      break
    }
    guard length >= 8 else { break }
    offset += length
  }
  return boxes
}
