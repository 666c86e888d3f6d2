import Foundation

/// The ffmpeg command lines of the fixtures whose playlists ffmpeg writes itself.
extension HLSFixture {
  /// The frame rate of every video source.
  static let frameRate = 25
  /// The sample rate of every audio source.
  static let sampleRate = 48_000

  /// `-f lavfi -i testsrc2=…`: a moving test pattern of `size` (such as `"320x180"`).
  static func videoSource(_ size: String, _ parameters: Parameters) -> [String] {
    let source = "testsrc2=size=\(size):rate=\(frameRate):duration=\(parameters.duration)"
    return ["-f", "lavfi", "-i", source]
  }

  /// `-f lavfi -i sine=…`: a tone of `frequency` Hz.
  static func audioSource(frequency: Int, _ parameters: Parameters) -> [String] {
    let source =
      "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(parameters.duration)"
    return ["-f", "lavfi", "-i", source]
  }

  /// Fast H.264 with a key frame at every segment boundary and none elsewhere, so the HLS
  /// muxer cuts exactly every `segmentDuration` seconds.
  static func videoEncoding(_ parameters: Parameters) -> [String] {
    [
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
      "-force_key_frames", "expr:gte(t,n_forced*\(parameters.segmentDuration))",
      "-sc_threshold", "0",
    ]
  }

  /// Mono AAC at 64 kb/s.
  static let audioEncoding = ["-c:a", "aac", "-b:a", "64k", "-ac", "1"]

  /// One 320x180 video at 200 kb/s with the 440 Hz tone, encoded and given to the HLS muxer:
  /// what every single-variant fixture starts with; the caller adds where the files go.
  static func smallStream(_ parameters: Parameters) -> [String] {
    videoSource("320x180", parameters) + audioSource(frequency: 440, parameters)
      + videoEncoding(parameters) + ["-b:v", "200k"] + audioEncoding + hlsOutput(parameters)
  }

  /// The HLS muxer writing a VOD playlist with `segmentDuration` segments.
  static func hlsOutput(_ parameters: Parameters) -> [String] {
    ["-f", "hls", "-hls_time", "\(parameters.segmentDuration)", "-hls_playlist_type", "vod"]
  }

  /// Three variants from one 960x540 source, scaled down, each with the same audio.
  func buildVariants(in folder: URL, _ parameters: Parameters) async throws -> Product {
    let filter = "[0:v]split=3[a][b][c];[a]scale=320:180[v0];[b]scale=640:360[v1];[c]copy[v2]"
    try await FFmpeg.checked(
      Self.videoSource("960x540", parameters) + Self.audioSource(frequency: 440, parameters)
        + ["-filter_complex", filter]
        + ["-map", "[v0]", "-map", "[v1]", "-map", "[v2]", "-map", "1:a", "-map", "1:a"]
        + ["-map", "1:a"] + Self.videoEncoding(parameters)
        + ["-b:v:0", "200k", "-b:v:1", "600k", "-b:v:2", "1200k"] + Self.audioEncoding
        + Self.hlsOutput(parameters)
        + ["-hls_segment_filename", folder.path + "/v%v/seg%d.ts"]
        + ["-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1 v:2,a:2"]
        + [folder.path + "/v%v/index.m3u8"])
    for variant in 0..<3 {
      try Self.fixTargetDuration(folder.appendingPathComponent("v\(variant)/index.m3u8"))
    }
    return Product(entry: "master.m3u8")
  }

  /// Fragmented MP4 segments after an `init.mp4` initialization section.
  func buildFragmentedMP4(in folder: URL, _ parameters: Parameters) async throws -> Product {
    try await FFmpeg.checked(
      Self.smallStream(parameters)
        + ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"]
        + ["-hls_segment_filename", folder.path + "/seg%d.m4s", folder.path + "/index.m3u8"])
    try Self.fixTargetDuration(folder.appendingPathComponent("index.m3u8"))
    return Product(entry: "index.m3u8")
  }

  /// All segments in one MPEG-TS file, addressed with `#EXT-X-BYTERANGE`.
  func buildByteRange(in folder: URL, _ parameters: Parameters) async throws -> Product {
    try await FFmpeg.checked(
      Self.smallStream(parameters)
        + ["-hls_flags", "single_file", folder.path + "/index.m3u8"])
    try Self.fixTargetDuration(folder.appendingPathComponent("index.m3u8"))
    return Product(entry: "index.m3u8")
  }

  /// Tiny video-only segments: 128x72 at 50 kb/s.
  func buildManySegments(in folder: URL, _ parameters: Parameters) async throws -> Product {
    try await FFmpeg.checked(
      Self.videoSource("128x72", parameters) + Self.videoEncoding(parameters)
        + ["-b:v", "50k"] + Self.hlsOutput(parameters)
        + ["-hls_segment_filename", folder.path + "/seg%d.ts", folder.path + "/index.m3u8"])
    try Self.fixTargetDuration(folder.appendingPathComponent("index.m3u8"))
    return Product(entry: "index.m3u8")
  }

  /// Raises `#EXT-X-TARGETDURATION:0`, which ffmpeg writes for segments shorter than 0.5 s,
  /// to 1: RFC 8216 (4.3.3.1) wants a positive number of whole seconds.
  static func fixTargetDuration(_ playlist: URL) throws {
    let text = try String(contentsOf: playlist, encoding: .utf8)
    let fixed = text.replacingOccurrences(
      of: "#EXT-X-TARGETDURATION:0\n", with: "#EXT-X-TARGETDURATION:1\n")
    if fixed != text { try fixed.write(to: playlist, atomically: true, encoding: .utf8) }
  }

  /// The `#EXTINF` line and URI of each segment of the media playlist at `playlist`, and its
  /// `#EXT-X-TARGETDURATION` line.
  static func segments(of playlist: URL) throws -> (
    targetDuration: String, segments: [(info: String, uri: String)]
  ) {
    let lines = try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n")
    var target = "#EXT-X-TARGETDURATION:1"
    var segments: [(info: String, uri: String)] = []
    var info: String?
    for line in lines.map(String.init) {
      if line.hasPrefix("#EXT-X-TARGETDURATION:") && !line.hasSuffix(":0") {
        target = line
      } else if line.hasPrefix("#EXTINF:") {
        info = line
      } else if !line.hasPrefix("#"), let pending = info {
        segments.append((pending, line))
        info = nil
      }
    }
    return (target, segments)
  }
}
