import Foundation

/// An offline copy of a stream as OfflineKit lays it out (`index.m3u8` and its segments, keys
/// under `keys/`), made by the ffmpeg program in a temporary folder.
struct Fixture {
  /// How the stream is segmented.
  enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// MPEG-TS segments, H.264 and AAC.
    case transportStream
    /// Fragmented MP4 segments behind an `EXT-X-MAP`.
    case fragmentedMP4
    /// MPEG-TS segments encrypted with AES-128, the key in `keys/`.
    case encrypted
    /// Two encodings one after the other, behind `EXT-X-DISCONTINUITY`, each starting its
    /// timestamps again.
    case discontinuous
    /// MPEG-TS segments with HEVC (with B-frames) and AAC.
    case hevc
    /// The first segment a file of its own, the others in one pack file, not in playlist
    /// order, addressed with `EXT-X-BYTERANGE`: the layout OfflineKit writes.
    case byteRangePack

    var description: String { rawValue }
  }

  /// The folder holding the offline copy.
  let folder: URL
  /// Its playlist.
  var playlist: URL { folder.appendingPathComponent("index.m3u8") }

  /// Makes an offline copy of `kind`, `seconds` long (per part for `discontinuous`), 320x240
  /// at 25 fps with a tone, segments of 2 s, in a fresh folder under `root`.
  static func make(_ kind: Kind, seconds: Int = 6, in root: URL) throws -> Fixture {
    let folder = root.appendingPathComponent(kind.rawValue)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    switch kind {
    case .transportStream:
      try encode(into: folder, seconds: seconds, extra: [])
    case .fragmentedMP4:
      try encode(
        into: folder, seconds: seconds,
        extra: ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"])
    case .encrypted:
      let keys = folder.appendingPathComponent("keys")
      try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
      let key = keys.appendingPathComponent("k0.key.ts")
      try Data((0..<16).map { UInt8($0 * 7 + 3) }).write(to: key)
      let info = folder.appendingPathComponent("keyinfo")
      try "keys/k0.key.ts\n\(key.path)\n000102030405060708090a0b0c0d0e0f\n".write(
        to: info, atomically: true, encoding: .utf8)
      try encode(into: folder, seconds: seconds, extra: ["-hls_key_info_file", info.path])
      try FileManager.default.removeItem(at: info)
    case .hevc:
      try encode(
        into: folder, seconds: seconds, extra: [],
        video: ["libx265", "-x265-params", "log-level=error:keyint=50"])
    case .byteRangePack:
      try encode(into: folder, seconds: seconds, extra: [], name: "origin")
      try pack(folder)
    case .discontinuous:
      try encode(into: folder, seconds: seconds, extra: [], name: "a", tone: 440)
      try encode(
        into: folder, seconds: seconds, extra: [], name: "b", tone: 880, pattern: "smptebars")
      try joinWithDiscontinuity(folder, parts: ["a", "b"])
    }
    return Fixture(folder: folder)
  }

  private static func encode(
    into folder: URL, seconds: Int, extra: [String], name: String = "index", tone: Int = 440,
    pattern: String = "testsrc", video: [String] = ["libx264", "-bf", "2"]
  ) throws {
    try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "\(pattern)=size=320x240:rate=25", "-f", "lavfi",
        "-i", "sine=frequency=\(tone):sample_rate=48000", "-t", "\(seconds)", "-c:v",
      ] + video + [
        "-preset", "ultrafast", "-g", "50", "-c:a", "aac", "-b:a", "64k",
        "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
        "-hls_segment_filename", "\(name)%d.\(extra.contains("fmp4") ? "m4s" : "ts")",
      ] + extra + ["\(name).m3u8"], in: folder)
  }

  /// Writes `index.m3u8` for the segments of `origin.m3u8`: the first as `s00000.ts`, the
  /// others in `pack.ts` last first, each addressed by its byte range.
  private static func pack(_ folder: URL) throws {
    let text = try String(
      contentsOf: folder.appendingPathComponent("origin.m3u8"), encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    let durations = lines.filter { $0.hasPrefix("#EXTINF") }
    let names = lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }
    let files = try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    try files[0].write(to: folder.appendingPathComponent("s00000.ts"))
    var pack = Data()
    var ranges = [Int: (length: Int, offset: Int)]()
    for index in files.indices.dropFirst().reversed() {
      ranges[index] = (files[index].count, pack.count)
      pack.append(files[index])
    }
    try pack.write(to: folder.appendingPathComponent("pack.ts"))
    var playlist = [
      "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD",
      durations[0], "s00000.ts",
    ]
    for index in files.indices.dropFirst() {
      let range = ranges[index]!
      playlist += [durations[index], "#EXT-X-BYTERANGE:\(range.length)@\(range.offset)", "pack.ts"]
    }
    playlist.append("#EXT-X-ENDLIST")
    try (playlist.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
    for name in names + ["origin.m3u8"] {
      try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }

  /// Writes `index.m3u8`: the parts' segments one after the other, an
  /// `EXT-X-DISCONTINUITY` before each part but the first. ffmpeg starts every encoding's
  /// timestamps again (at 1.4 s), so they go back at each one.
  private static func joinWithDiscontinuity(_ folder: URL, parts: [String]) throws {
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2",
      "#EXT-X-PLAYLIST-TYPE:VOD",
    ]
    for (number, part) in parts.enumerated() {
      let text = try String(
        contentsOf: folder.appendingPathComponent("\(part).m3u8"), encoding: .utf8)
      if number > 0 { lines.append("#EXT-X-DISCONTINUITY") }
      let body = text.split(separator: "\n").filter {
        $0.hasPrefix("#EXTINF") || !$0.hasPrefix("#")
      }
      lines += body.map(String.init)
    }
    lines.append("#EXT-X-ENDLIST")
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
  }

  /// Makes an offline copy with a master playlist: one video variant and two audio renditions
  /// of its own, English (the default) and French, each in a folder of its own.
  static func makeWithAudioRenditions(seconds: Int = 4, in root: URL) throws -> Fixture {
    let folder = root.appendingPathComponent("renditions")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i",
        "sine=frequency=440", "-f", "lavfi", "-i", "sine=frequency=660", "-t", "\(seconds)",
        "-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:v", "libx264", "-preset", "ultrafast",
        "-g", "50", "-c:a", "aac", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
        "-master_pl_name", "index.m3u8", "-var_stream_map",
        "v:0,agroup:aud a:0,agroup:aud,language:en,default:yes a:1,agroup:aud,language:fr",
        "v%v/playlist.m3u8",
      ], in: folder)
    return Fixture(folder: folder)
  }

  /// Makes an offline DASH copy: `index.mpd` with a `SegmentTemplate` and `SegmentTimeline`,
  /// one video and one audio representation in fMP4 segments of 2 s.
  static func makeDASH(seconds: Int = 6, in root: URL) throws -> Fixture {
    let folder = root.appendingPathComponent("dash")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i",
        "sine=frequency=440", "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast",
        "-g", "50", "-c:a", "aac", "-f", "dash", "-seg_duration", "2", "-use_template", "1",
        "-use_timeline", "1", "index.mpd",
      ], in: folder)
    return Fixture(folder: folder)
  }

  /// Makes an offline copy of `parts` × 5 segments of 0.4 s: one 2 s encoding whose five
  /// segments are listed again and again, an `EXT-X-DISCONTINUITY` before each repetition, so
  /// the timestamps start again `parts - 1` times. Each part's AAC runs a few milliseconds past
  /// its video, as it does in real splices. With `bFramesEveryOtherPart`, every other part is a
  /// second encoding made apart, with B-frames (x264 `veryfast`: pictures shown two frames
  /// after they are decoded) and another tone.
  static func makeManyResets(
    parts: Int, bFramesEveryOtherPart: Bool = false, in root: URL
  ) throws -> Fixture {
    let folder = root.appendingPathComponent("resets")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let encodings =
      bFramesEveryOtherPart
      ? [("part", "ultrafast", 440), ("bpart", "veryfast", 660)] : [("part", "ultrafast", 440)]
    var segments: [[String]] = []
    for (name, preset, tone) in encodings {
      try Tool.run(
        "ffmpeg",
        [
          "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi",
          "-i", "sine=frequency=\(tone):sample_rate=48000", "-t", "2", "-c:v", "libx264",
          "-preset", preset, "-g", "10", "-c:a", "aac", "-b:a", "32k", "-f", "hls",
          "-hls_time", "0.4", "-hls_playlist_type", "vod", "-hls_segment_filename",
          "\(name)%d.ts", "\(name).m3u8",
        ], in: folder)
      let text = try String(
        contentsOf: folder.appendingPathComponent("\(name).m3u8"), encoding: .utf8)
      segments.append(
        text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF") || !$0.hasPrefix("#") }
          .map(String.init))
    }
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-PLAYLIST-TYPE:VOD",
    ]
    for part in 0..<parts {
      if part > 0 { lines.append("#EXT-X-DISCONTINUITY") }
      lines += segments[part % segments.count]
    }
    lines.append("#EXT-X-ENDLIST")
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
    return Fixture(folder: folder)
  }

  /// The playlist's duration: the sum of its `EXTINF` durations.
  func playlistDuration() throws -> Double {
    try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n")
      .filter { $0.hasPrefix("#EXTINF:") }
      .compactMap { Double($0.dropFirst(8).prefix { $0 != "," }) }
      .reduce(0, +)
  }
}
