import Foundation
import TestTiming
import Testing

@testable import OfflineExport

/// Issue 42, subtitles across a timestamp reset: each WebVTT segment's `X-TIMESTAMP-MAP` is
/// read in its own discontinuity domain, so the cues after a reset follow the reset pictures
/// on the file's one timeline.
@Suite(.timed) struct ExportSubtitleResetTests {
  /// Makes an offline copy of two 4 s encodings joined with `EXT-X-DISCONTINUITY` (each starts
  /// its MPEG-TS timestamps again, at ffmpeg's 1.4 s), and a WebVTT rendition of the same
  /// shape whose segments map their cue times onto their own encoding's timestamps: "A" and
  /// "B" at 0.5 and 2.5 s of the first, "C" and "D" at 0.5 and 2.5 s of the second.
  static func resetStream(in folder: TemporaryFolder) throws -> URL {
    let source = folder.url.appendingPathComponent("reset")
    let video = source.appendingPathComponent("v")
    let subtitles = source.appendingPathComponent("s")
    for made in [video, subtitles] {
      try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
    }
    var videoLines: [String] = []
    var subtitleLines: [String] = []
    for (part, texts) in [["A", "B"], ["C", "D"]].enumerated() {
      try Tool.run(
        "ffmpeg",
        [
          "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi",
          "-i", "sine=frequency=\(440 * (part + 1))", "-t", "4", "-c:v", "libx264", "-preset",
          "ultrafast", "-g", "50", "-c:a", "aac", "-f", "hls", "-hls_time", "2",
          "-hls_playlist_type", "vod", "-hls_segment_filename", "p\(part)_%d.ts", "p\(part).m3u8",
        ], in: video)
      let start = try Self.startTime(of: video.appendingPathComponent("p\(part)_0.ts"))
      let ticks = Int((start * 90_000).rounded())
      if part > 0 {
        videoLines.append("#EXT-X-DISCONTINUITY")
        subtitleLines.append("#EXT-X-DISCONTINUITY")
      }
      for segment in 0..<2 {
        videoLines += ["#EXTINF:2.000000,", "p\(part)_\(segment).ts"]
        let name = "p\(part)_\(segment).vtt"
        let cue = 2 * segment
        try """
        WEBVTT
        X-TIMESTAMP-MAP=MPEGTS:\(ticks),LOCAL:00:00:00.000

        00:00:0\(cue).500 --> 00:00:0\(cue + 1).500
        \(texts[segment])

        """.write(to: subtitles.appendingPathComponent(name), atomically: true, encoding: .utf8)
        subtitleLines += ["#EXTINF:2.000000,", name]
      }
    }
    let head = [
      "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD",
    ]
    for (folder, lines) in [(video, videoLines), (subtitles, subtitleLines)] {
      try ((head + lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n").write(
        to: folder.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
    }
    try """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,\
    AUTOSELECT=YES,URI="s/index.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=300000,SUBTITLES="subs"
    v/index.m3u8

    """.write(
      to: source.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
    return source
  }

  /// The start time ffprobe gives a media file, in seconds.
  static func startTime(of file: URL) throws -> Double {
    let output = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", file.path])
    return Double(
      String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
      ?? 0
  }

  @Test(arguments: ExportFormat.allCases)
  func cuesAfterAResetFollowTheResetPictures(format: ExportFormat) async throws {
    let folder = try TemporaryFolder()
    let source = try Self.resetStream(in: folder)
    let output = folder.url.appendingPathComponent("out.\(format.rawValue)")
    let report = try await StreamExport(
      source: source, destination: output, writesSubtitleSidecar: true
    ).run()
    #expect(report.discontinuities == 1)
    #expect(report.tracks.map(\.kind) == [.video, .audio, .subtitle])
    #expect(abs(report.duration - 8) <= 0.1, "\(report.duration) s")
    // Before: the second part's cues were put on the first part's timeline, over A and B.
    #expect(
      try ExportSubtitleTests.subtitleCues(of: output) == [
        "00:00:00,500 --> 00:00:01,500 A", "00:00:02,500 --> 00:00:03,500 B",
        "00:00:04,500 --> 00:00:05,500 C", "00:00:06,500 --> 00:00:07,500 D",
      ])
    let sidecar = try String(
      contentsOf: output.deletingPathExtension().appendingPathExtension("vtt"), encoding: .utf8)
    #expect(sidecar.contains("00:00:04.500 --> 00:00:05.500\nC\n"), "\(sidecar)")
  }
}
