import Foundation
import TestTiming
import Testing

@testable import OfflineExport

/// Issue 42, subtitles: a WebVTT rendition of the offline copy becomes one subtitle track of
/// the file (mov_text in MP4, WebVTT in Matroska), its segments merged and their
/// `X-TIMESTAMP-MAP` applied, checked with ffmpeg's reading of the file.
@Suite(.timed) struct ExportSubtitleTests {
  /// Makes an offline copy with a WebVTT subtitle rendition (English, default) beside one
  /// variant of video and audio, as ffmpeg's HLS muxer writes it: 4 s in segments of 2 s, the
  /// cues "Hello" at 0.5-2.0 s and "World" at 2.5-3.5 s.
  static func subtitledStream(in folder: TemporaryFolder) throws -> URL {
    let source = folder.url.appendingPathComponent("subtitled")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    let cues = folder.url.appendingPathComponent("cues.vtt")
    try "WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nHello\n\n00:00:02.500 --> 00:00:03.500\nWorld\n"
      .write(to: cues, atomically: true, encoding: .utf8)
    try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i",
        "sine", "-i", cues.path, "-t", "4", "-map", "0:v", "-map", "1:a", "-map", "2:s",
        "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-c:a", "aac", "-c:s", "webvtt",
        "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-master_pl_name",
        "index.m3u8", "-var_stream_map", "v:0,a:0,s:0,sgroup:subs,language:en",
        "v%v/playlist.m3u8",
      ], in: source)
    return source
  }

  /// The subtitle cues of `file` as ffmpeg reads them: start and end in milliseconds, and
  /// the text without markup.
  static func subtitleCues(of file: URL) throws -> [String] {
    let srt = String(
      decoding: try Tool.run(
        "ffmpeg", ["-v", "error", "-i", file.path, "-map", "0:s", "-f", "srt", "-"]),
      as: UTF8.self)
    return srt.components(separatedBy: "\n\n").compactMap { block in
      let lines = block.split(separator: "\n")
      guard lines.count >= 3 else { return nil }
      let text = lines[2...].joined(separator: " ").replacingOccurrences(
        of: "<[^>]+>", with: "", options: .regularExpression)
      return "\(lines[1]) \(text)"
    }
  }

  // libavformat 5.1's HLS demuxer makes no stream of a WebVTT rendition (this test pinned
  // that they were left out); the export reads the rendition's segments itself.
  @Test(arguments: [(ExportFormat.mp4, "mov_text"), (.mkv, "webvtt")])
  func aWebVTTRenditionBecomesOneSubtitleTrack(format: ExportFormat, codec: String) async throws {
    let folder = try TemporaryFolder()
    let source = try Self.subtitledStream(in: folder)
    let output = folder.url.appendingPathComponent("out.\(format.rawValue)")
    let report = try await StreamExport(source: source, destination: output).run()
    #expect(report.tracks.map(\.kind) == [.video, .audio, .subtitle])
    #expect(report.tracks.last?.codec == codec)
    #expect(report.tracks.last?.language == "eng")
    #expect(report.tracks.last?.packets == 2)
    // ffmpeg's HLS muxer writes its segments without X-TIMESTAMP-MAP, 24 ms late.
    #expect(
      try Self.subtitleCues(of: output) == [
        "00:00:00,524 --> 00:00:02,024 Hello", "00:00:02,524 --> 00:00:03,524 World",
      ])
  }

  @Test func cuesWithATimestampMapFollowTheVideosTimeline() async throws {
    let folder = try TemporaryFolder()
    let source = try Self.subtitledStream(in: folder)
    // The stream's start on the MPEG-TS timeline, its earliest packet's (ffmpeg's is 1.4 s):
    // the file's time 0.
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-show_entries", "format=start_time", "-of",
        "csv=p=0", source.appendingPathComponent("v0/playlist0.ts").path,
      ])
    let start = try #require(
      String(decoding: probe, as: UTF8.self).split(separator: "\n").first.flatMap { Double($0) })
    let ticks = Int((start * 90_000).rounded())
    // Cues at 1-2 s and 2.5-3 s of the media, given as 0-1 s and 1.5-2 s after LOCAL 10 s.
    for (index, cue) in [
      "00:00:10.000 --> 00:00:11.000\nOne", "00:00:11.500 --> 00:00:12.000\nTwo",
    ].enumerated() {
      try "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(ticks + 90_000),LOCAL:00:00:10.000\n\n\(cue)\n".write(
        to: source.appendingPathComponent("v0/playlist\(index).vtt"), atomically: true,
        encoding: .utf8)
    }
    let output = folder.url.appendingPathComponent("out.mkv")
    _ = try await StreamExport(source: source, destination: output).run()
    #expect(
      try Self.subtitleCues(of: output) == [
        "00:00:01,000 --> 00:00:02,000 One", "00:00:02,500 --> 00:00:03,000 Two",
      ])
  }

  @Test func theSidecarHoldsTheTracksCuesInTheFilesTimes() async throws {
    let folder = try TemporaryFolder()
    let source = try Self.subtitledStream(in: folder)
    let export = StreamExport(
      source: source, destination: folder.url.appendingPathComponent("film.mp4"),
      writesSubtitleSidecar: true)
    let report = try await export.run()
    let sidecar = folder.url.appendingPathComponent("film.vtt")
    #expect(report.subtitleSidecar == sidecar)
    #expect(
      try String(contentsOf: sidecar, encoding: .utf8)
        == "WEBVTT\n\n00:00:00.524 --> 00:00:02.024\nHello\n\n00:00:02.524 --> 00:00:03.524\nWorld\n"
    )
  }

  @Test func anExistingSidecarIsRefusedBeforeAnythingIsWritten() async throws {
    let folder = try TemporaryFolder()
    let source = try Self.subtitledStream(in: folder)
    let sidecar = folder.url.appendingPathComponent("film.vtt")
    try "mine".write(to: sidecar, atomically: true, encoding: .utf8)
    await #expect(throws: ExportError.destinationExists(path: sidecar.path)) {
      try await StreamExport(
        source: source, destination: folder.url.appendingPathComponent("film.mp4"),
        writesSubtitleSidecar: true
      ).run()
    }
    #expect(try folder.names().sorted() == ["cues.vtt", "film.vtt", "subtitled"])
    #expect(try String(contentsOf: sidecar, encoding: .utf8) == "mine")
  }
}
